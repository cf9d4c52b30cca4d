import { MigrationInterface, QueryRunner } from 'typeorm';
import { migrationEngine } from './migration-engine';

/**
 * One event per aggregate version: idx_aggregate (aggregate_type, aggregate_id,
 * aggregate_version) becomes a unique key. Consumers gate events by (aggregate, version), so a
 * second event at a taken version would be skipped by every consumer as stale; the writer now
 * refuses it (OutboxError OUTBOX_VERSION_TAKEN) and the table cannot hold it. The ordering
 * check keeps reading the same columns, through the unique key.
 *
 * A table that already holds two rows at one version fails this migration with ER_DUP_ENTRY
 * naming them: decide which event that version is before upgrading (the second is the one
 * every consumer skipped). On PostgreSQL the same change, in its words and names.
 */
export class AggregateVersionUnique1765100000000 implements MigrationInterface {
  name = 'AggregateVersionUnique1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (migrationEngine(queryRunner) === 'postgres') {
      await queryRunner.query(
        `ALTER TABLE t_outbox ADD CONSTRAINT uk_outbox_aggregate_version
           UNIQUE (aggregate_type, aggregate_id, aggregate_version)`,
      );
      await queryRunner.query('DROP INDEX idx_outbox_aggregate');
      return;
    }
    await queryRunner.query(
      `ALTER TABLE t_outbox
         ADD UNIQUE KEY uk_aggregate_version (aggregate_type, aggregate_id, aggregate_version),
         DROP INDEX idx_aggregate`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (migrationEngine(queryRunner) === 'postgres') {
      await queryRunner.query(
        `CREATE INDEX idx_outbox_aggregate
           ON t_outbox (aggregate_type, aggregate_id, aggregate_version)`,
      );
      await queryRunner.query('ALTER TABLE t_outbox DROP CONSTRAINT uk_outbox_aggregate_version');
      return;
    }
    await queryRunner.query(
      `ALTER TABLE t_outbox
         ADD KEY idx_aggregate (aggregate_type, aggregate_id, aggregate_version),
         DROP INDEX uk_aggregate_version`,
    );
  }
}
