import { MigrationInterface, QueryRunner } from 'typeorm';
import { migrationEngine } from './migration-engine';

/**
 * Durable duplicate accounting: each t_inbox row counts the redeliveries it absorbed and when
 * the last one came, so an operator (and the order timeline) can see duplicates after restarts.
 */
export class AddInboxDuplicateCount1764900000000 implements MigrationInterface {
  name = 'AddInboxDuplicateCount1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (migrationEngine(queryRunner) === 'postgres') {
      await queryRunner.query(`
        ALTER TABLE t_inbox
          ADD COLUMN duplicate_count INTEGER NOT NULL DEFAULT 0 CHECK (duplicate_count >= 0),
          ADD COLUMN last_duplicate_at TIMESTAMPTZ(3) NULL`);
      return;
    }
    await queryRunner.query(`
      ALTER TABLE t_inbox
        ADD COLUMN duplicate_count INT UNSIGNED NOT NULL DEFAULT 0,
        ADD COLUMN last_duplicate_at DATETIME(3) NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE t_inbox DROP COLUMN last_duplicate_at, DROP COLUMN duplicate_count',
    );
  }
}
