import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `t_ledger_currency`: the currencies finance has opened the ledger in; a journal in any other
 * currency is refused (and its event dead-lettered) until its row is added.
 *
 * Opened at once: every currency the ledger has booked in before (so an upgrade refuses nothing
 * it accepted), and the currencies the shop sold in when the rule came: EUR, USD, GBP, JPY, CNY.
 */
export class CreateLedgerCurrencyTable1765400000000 implements MigrationInterface {
  name = 'CreateLedgerCurrencyTable1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE t_ledger_currency (
        currency CHAR(3) NOT NULL PRIMARY KEY,
        opened_at DATETIME(3) NOT NULL
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await queryRunner.query(`
      INSERT INTO t_ledger_currency (currency, opened_at)
      SELECT currency, NOW(3) FROM (
        SELECT currency FROM t_account
        UNION SELECT 'EUR' UNION SELECT 'USD' UNION SELECT 'GBP' UNION SELECT 'JPY' UNION SELECT 'CNY'
      ) opened`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE t_ledger_currency');
  }
}
