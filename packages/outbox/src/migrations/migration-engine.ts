import { engineOf, SqlEngine } from '@outbox-inbox/database';
import type { QueryRunner } from 'typeorm';

/**
 * The engine a migration runs on, from its query runner's DataSource: each outbox migration
 * holds its change in both engines' words, so an app keeps one migrations list on either.
 */
export function migrationEngine(queryRunner: QueryRunner): SqlEngine {
  return engineOf(queryRunner.connection.options.type);
}
