import { MigrationInterface, QueryRunner } from 'typeorm';
import { AggregateVersionUnique1765100000000 } from './aggregate-version-unique.migration';
import { OutboxOperatorAuditTable1765300000100 } from './operator-audit-table.migration';
import { SingleStatusIndex1765000000000 } from './single-status-index.migration';

/**
 * Creates `t_outbox`. Beyond the article's table it holds the aggregate version (per-aggregate
 * order), the Kafka headers, the last error and a lease (owner, token, expiry) so that a row
 * left SENDING by a relay that died is claimed again, and only by one relay at a time.
 *
 * Indexes, each for one query:
 * - idx_status_retry (status, next_retry_at): claiming due NEW rows, in due order, without a
 *   sort; SENT and DEAD rows sit in other ranges of the index and are never read.
 * - idx_status_lease (status, lease_until): claiming SENDING rows whose lease expired.
 * - idx_aggregate (aggregate_type, aggregate_id, aggregate_version): the ordering check
 *   ("is an earlier version of this aggregate still unsent?").
 * - idx_status_updated (status, updated_at): retention deletes old SENT rows in chunks.
 * SingleStatusIndex1765000000000 later drops idx_status_lease and idx_status_updated: their
 * queries read idx_status_retry instead; AggregateVersionUnique1765100000000 makes
 * idx_aggregate the unique key uk_aggregate_version (one event per aggregate version).
 */
export class CreateOutboxTable1764700000000 implements MigrationInterface {
  name = 'CreateOutboxTable1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE t_outbox (
        id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
        aggregate_type VARCHAR(32) NOT NULL,
        aggregate_id VARCHAR(64) NOT NULL,
        aggregate_version INT UNSIGNED NOT NULL,
        event_type VARCHAR(64) NOT NULL,
        event_key VARCHAR(190) NOT NULL,
        event_id CHAR(36) NOT NULL,
        payload LONGTEXT NOT NULL COMMENT 'the whole envelope JSON: the Kafka message value',
        headers LONGTEXT NOT NULL COMMENT 'Kafka headers JSON: envelope fields, trace context',
        status VARCHAR(8) NOT NULL DEFAULT 'NEW' COMMENT 'NEW / SENDING / SENT / DEAD',
        retry_count INT UNSIGNED NOT NULL DEFAULT 0,
        next_retry_at DATETIME(3) NOT NULL,
        last_error VARCHAR(1000) NULL,
        lease_owner VARCHAR(64) NULL,
        lease_token CHAR(36) NULL,
        lease_until DATETIME(3) NULL,
        created_at DATETIME(3) NOT NULL,
        updated_at DATETIME(3) NOT NULL,
        sent_at DATETIME(3) NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uk_event_key (event_key),
        KEY idx_status_retry (status, next_retry_at),
        KEY idx_status_lease (status, lease_until),
        KEY idx_aggregate (aggregate_type, aggregate_id, aggregate_version),
        KEY idx_status_updated (status, updated_at)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE t_outbox');
  }
}

/**
 * The outbox migrations, in order; include them in each service's migrations list. They create
 * the operator audit log's table too, which the operator API's requeue writes to.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const OutboxMigrations: Function[] = [
  CreateOutboxTable1764700000000,
  SingleStatusIndex1765000000000,
  AggregateVersionUnique1765100000000,
  OutboxOperatorAuditTable1765300000100,
];
