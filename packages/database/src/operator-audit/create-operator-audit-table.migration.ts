import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `t_operator_audit`: every state-changing action an operator took through the outbox's and
 * the inbox's operator APIs (requeue, replay, gap skip): when, what, how many, why and who.
 * Written in the action's own transaction when the action is a database change.
 *
 * The outbox's and the inbox's own migration lists create this table (OutboxMigrations,
 * InboxMigrations), each under its own migration name, so an app never lists it itself. Each
 * of them, and this one, creates it only when it is absent: any mix of the three runs on one
 * database, and a table made by an earlier run is left as it is.
 */
export class CreateOperatorAuditTable1765300000000 implements MigrationInterface {
  name = 'CreateOperatorAuditTable1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS t_operator_audit (
        id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
        area VARCHAR(16) NOT NULL COMMENT 'outbox / inbox',
        action VARCHAR(64) NOT NULL,
        target VARCHAR(4000) NOT NULL COMMENT 'the filter or selector, as JSON',
        affected INT UNSIGNED NOT NULL,
        reason VARCHAR(500) NULL,
        who VARCHAR(64) NOT NULL COMMENT 'the name of the operator token used',
        at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        KEY idx_operator_audit_area (area, id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS t_operator_audit');
  }
}
