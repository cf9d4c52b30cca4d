import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `t_inbox_skip`: versions of an aggregate an operator skipped on purpose (the event will never
 * come: dead-lettered for good upstream, never written, or gone with the topic's retention),
 * with the reason and who did it. The audit trail of InboxOperations.skipVersion; the order
 * timeline shows these rows.
 */
export class CreateInboxSkipTable1765100000100 implements MigrationInterface {
  name = 'CreateInboxSkipTable1765100000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE t_inbox_skip (
        id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
        consumer VARCHAR(64) NOT NULL,
        aggregate_type VARCHAR(32) NOT NULL,
        aggregate_id VARCHAR(64) NOT NULL,
        aggregate_version INT UNSIGNED NOT NULL,
        reason VARCHAR(500) NOT NULL,
        skipped_by VARCHAR(64) NOT NULL,
        skipped_at DATETIME(3) NOT NULL,
        drained INT UNSIGNED NOT NULL COMMENT 'parked successors applied by the skip',
        PRIMARY KEY (id),
        UNIQUE KEY uk_inbox_skip (consumer, aggregate_type, aggregate_id, aggregate_version)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE t_inbox_skip');
  }
}
