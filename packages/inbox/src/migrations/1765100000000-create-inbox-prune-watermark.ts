import { MigrationInterface, QueryRunner } from 'typeorm';
import { migrationEngine } from './migration-engine';

/**
 * t_inbox_prune: one row per consumer whose inbox was pruned, recorded before each prune
 * deletes: every row of that consumer processed before `pruned_before` (and none with an id
 * above `pruned_through_id`) may be gone, parked rows excepted. Auditors (the invariant checker)
 * read it to tell a row removed by retention from one that was never written.
 */
export class CreateInboxPruneWatermark1765100000000 implements MigrationInterface {
  name = 'CreateInboxPruneWatermark1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (migrationEngine(queryRunner) === 'postgres') {
      await queryRunner.query(`
        CREATE TABLE t_inbox_prune (
          consumer VARCHAR(64) NOT NULL PRIMARY KEY,
          pruned_before TIMESTAMPTZ(3) NOT NULL,
          pruned_through_id BIGINT NOT NULL CHECK (pruned_through_id >= 0),
          pruned_at TIMESTAMPTZ(3) NOT NULL
        )`);
      return;
    }
    await queryRunner.query(`
      CREATE TABLE t_inbox_prune (
        consumer VARCHAR(64) NOT NULL PRIMARY KEY,
        pruned_before DATETIME(3) NOT NULL,
        pruned_through_id BIGINT UNSIGNED NOT NULL,
        pruned_at DATETIME(3) NOT NULL
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE t_inbox_prune');
  }
}
