/** PostgreSQL on node-postgres: this subpath loads the driver; the package's entry does not. */
export { postgresAffectedRows, postgresDialect } from './postgres-dialect';
/** DataSource options (UTC, lock_timeout, a bounded pool). */
export { openPostgresDataSource, postgresDataSourceOptions } from './postgres-data-source';
/** Creates the database named in a URL when it does not exist yet (UTF8). */
export { ensurePostgresDatabase } from './ensure-postgres-database';
