import type { SqlDialect } from '../sql-dialect';
import { sendOneByOne } from '../statements';
import { ensurePostgresDatabase } from './ensure-postgres-database';
import { postgresDataSourceOptions } from './postgres-data-source';
import { postgresAffectedRows } from './postgres-affected-rows';
import { isPostgresDuplicateKey, isTransientPostgresError } from './postgres-errors';
import { PostgresNotificationListener } from './notification-listener';

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
