import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The double-entry ledger: accounts with a balance per currency, journals (one per source
 * event, by its unique key), their lines, and the paid orders seen in OrderPaid events that
 * reconciliation compares with the payment journals.
 *
 * CHECK constraints hold what one row can prove (a line is on exactly one side; a journal's
 * stored totals are equal and positive). That the lines of a journal add up to its totals
 * spans rows, which neither MySQL nor MariaDB can check declaratively: the domain enforces it
 * when building the journal and GET /ledger/reconciliation verifies it.
 */
export class CreateLedgerTables1764800000000 implements MigrationInterface {
  name = 'CreateLedgerTables1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE t_account (
        code VARCHAR(8) NOT NULL,
        currency CHAR(3) NOT NULL,
        name VARCHAR(64) NOT NULL,
        type VARCHAR(16) NOT NULL,
        balance BIGINT NOT NULL DEFAULT 0 COMMENT 'debits minus credits, minor units',
        version BIGINT UNSIGNED NOT NULL DEFAULT 0,
        created_at DATETIME(3) NOT NULL,
        updated_at DATETIME(3) NOT NULL,
        PRIMARY KEY (code, currency),
        CONSTRAINT chk_account_type CHECK (type IN ('ASSET','LIABILITY','EQUITY','REVENUE','EXPENSE'))
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await queryRunner.query(`
      CREATE TABLE t_journal (
        id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
        source_event_key VARCHAR(190) NOT NULL,
        source_event_id CHAR(36) NOT NULL,
        event_type VARCHAR(64) NOT NULL,
        kind VARCHAR(16) NOT NULL,
        order_id VARCHAR(32) NOT NULL,
        currency CHAR(3) NOT NULL,
        total_debit BIGINT NOT NULL,
        total_credit BIGINT NOT NULL,
        description VARCHAR(255) NOT NULL,
        occurred_at DATETIME(3) NOT NULL,
        created_at DATETIME(3) NOT NULL,
        UNIQUE KEY uk_journal_source_event (source_event_key),
        KEY ix_journal_order (order_id),
        KEY ix_journal_kind_order (kind, order_id),
        CONSTRAINT chk_journal_balanced CHECK (total_debit = total_credit AND total_debit > 0)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await queryRunner.query(`
      CREATE TABLE t_journal_line (
        id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
        journal_id BIGINT UNSIGNED NOT NULL,
        line_no SMALLINT UNSIGNED NOT NULL,
        account_code VARCHAR(8) NOT NULL,
        currency CHAR(3) NOT NULL,
        debit BIGINT NOT NULL,
        credit BIGINT NOT NULL,
        UNIQUE KEY uk_journal_line (journal_id, line_no),
        KEY ix_journal_line_account (account_code, currency),
        CONSTRAINT fk_journal_line_journal FOREIGN KEY (journal_id) REFERENCES t_journal (id),
        CONSTRAINT fk_journal_line_account FOREIGN KEY (account_code, currency)
          REFERENCES t_account (code, currency),
        CONSTRAINT chk_journal_line_one_side
          CHECK (debit >= 0 AND credit >= 0 AND (debit = 0) <> (credit = 0))
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await queryRunner.query(`
      CREATE TABLE t_paid_order (
        order_id VARCHAR(32) NOT NULL PRIMARY KEY,
        pay_order_id VARCHAR(64) NOT NULL,
        amount BIGINT NOT NULL,
        currency CHAR(3) NOT NULL,
        paid_at DATETIME(3) NOT NULL,
        source_event_key VARCHAR(190) NOT NULL,
        recorded_at DATETIME(3) NOT NULL,
        CONSTRAINT chk_paid_order_amount CHECK (amount > 0)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE t_paid_order');
    await queryRunner.query('DROP TABLE t_journal_line');
    await queryRunner.query('DROP TABLE t_journal');
    await queryRunner.query('DROP TABLE t_account');
  }
}
