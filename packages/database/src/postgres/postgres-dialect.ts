import type { SqlDialect } from '../sql-dialect';
import { sendOneByOne } from '../statements';
import { ensurePostgresDatabase } from './ensure-postgres-database';
import { postgresDataSourceOptions } from './postgres-data-source';
import { postgresAffectedRows } from './postgres-affected-rows';
import { isPostgresDuplicateKey, isTransientPostgresError } from './postgres-errors';

export { postgresAffectedRows };

/** PostgreSQL, on node-postgres. */
export const postgresDialect: SqlDialect = {
  engine: 'postgres',
  dataSourceOptions: postgresDataSourceOptions,
  ensureDatabase: ensurePostgresDatabase,
  runStatements: sendOneByOne,
  affectedRows: postgresAffectedRows,
  isTransient: isTransientPostgresError,
  isDuplicateKey: isPostgresDuplicateKey,
};
