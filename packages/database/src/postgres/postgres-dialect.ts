import { registerDialect } from '../dialect-registry';
import type { SqlDialect } from '../sql-dialect';
import { ensurePostgresDatabase } from './ensure-postgres-database';
import { postgresDataSourceOptions } from './postgres-data-source';
import { postgresAffectedRows } from './postgres-affected-rows';
import { isPostgresDuplicateKey, isTransientPostgresError } from './postgres-errors';
import { PostgresNotificationListener } from './notification-listener';

export { postgresAffectedRows };

/**
 * PostgreSQL, on node-postgres. A query with values goes through the extended protocol, which
 * takes one statement per query (only a query without any value may carry several, and the
 * packages' statements carry values): several statements run one query each. A data-modifying
 * CTE locks, updates and answers rows in one statement, so rows are claimed in one.
 */
export const postgresDialect: SqlDialect = {
  engine: 'postgres',
  dataSourceOptions: postgresDataSourceOptions,
  ensureDatabase: ensurePostgresDatabase,
  severalStatementsPerQuery: () => false,
  claimStyle: 'one-statement',
  affectedRows: postgresAffectedRows,
  isTransient: isTransientPostgresError,
  isDuplicateKey: isPostgresDuplicateKey,
  notifications: {
    notify: (channel) => ({
      sql: "SELECT pg_notify($1, '')",
      params: [channel],
      read: () => undefined,
    }),
    listen: (dataSource, channel, onNotify, options) =>
      PostgresNotificationListener.on(dataSource, channel, onNotify, options),
  },
};

registerDialect(postgresDialect);
