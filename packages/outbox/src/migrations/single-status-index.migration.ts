import { MigrationInterface, QueryRunner } from 'typeorm';
import { migrationEngine } from './migration-engine';

/**
 * One status-prefixed index instead of three. Every status change of a row rewrote an entry in
 * each of idx_status_retry, idx_status_lease and idx_status_updated; every row changes status
 * twice on its way to SENT. Now `next_retry_at` is the row's clock in its status, read through
 * idx_status_retry (status, next_retry_at) alone:
 * - NEW: when the row is due (as before);
 * - SENDING: when its lease expires (equal to `lease_until`);
 * - SENT: when it was sent (equal to `sent_at`; earlier rows keep their last due time, which is
 *   never later than `sent_at`, so retention also checks `sent_at`);
 * - DEAD: when it died.
 * Claiming expired leases and retention read ranges of idx_status_retry, in index order.
 *
 * On PostgreSQL it changes nothing: CreateOutboxTable1764700000000 makes the table there with
 * the single status index, and no relay ever leased a row under the old rule.
 */
export class SingleStatusIndex1765000000000 implements MigrationInterface {
  name = 'SingleStatusIndex1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (migrationEngine(queryRunner) === 'postgres') return;
    await queryRunner.query(
      `UPDATE t_outbox SET next_retry_at = lease_until
       WHERE status = 'SENDING' AND lease_until IS NOT NULL`,
    );
    await queryRunner.query(
      'ALTER TABLE t_outbox DROP INDEX idx_status_lease, DROP INDEX idx_status_updated',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (migrationEngine(queryRunner) === 'postgres') return;
    await queryRunner.query(
      `ALTER TABLE t_outbox ADD KEY idx_status_lease (status, lease_until),
         ADD KEY idx_status_updated (status, updated_at)`,
    );
  }
}
