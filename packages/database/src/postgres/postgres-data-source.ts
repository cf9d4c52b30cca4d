import { DataSource, DataSourceOptions } from 'typeorm';
import type { DataSourceConfig } from '../sql-dialect';

/** PostgreSQL's own `lock_timeout` is 0: a statement would wait for a row lock forever. */
const DEFAULT_LOCK_TIMEOUT_S = 50;

/**
 * DataSource options for PostgreSQL on node-postgres, with the same promises as MySQL's:
 * UTC, bigints as strings (node-postgres's default for int8), no `synchronize`, a bounded
 * pool, and a lock wait that ends (`lock_timeout`, 50 s like InnoDB's default unless
 * `lockWaitTimeoutS` says otherwise) so that a stuck lock fails transiently and is retried
 * instead of hanging a consumer. READ COMMITTED is already PostgreSQL's default.
 */
export function postgresDataSourceOptions(config: DataSourceConfig): DataSourceOptions {
  const lockTimeoutS = config.lockWaitTimeoutS ?? DEFAULT_LOCK_TIMEOUT_S;
  if (!Number.isInteger(lockTimeoutS) || lockTimeoutS < 1) {
    throw new RangeError(`lockWaitTimeoutS must be a positive integer, got ${lockTimeoutS}`);
  }
  return {
    type: 'postgres',
    url: config.url,
    entities: config.entities ?? [],
    migrations: config.migrations ?? [],
    migrationsTableName: config.migrationsTableName ?? 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    poolSize: config.poolSize ?? 10,
    extra: {
      max: config.poolSize ?? 10,
      connectionTimeoutMillis: config.acquireTimeoutMs ?? 10_000,
      keepAlive: true,
      // Session settings sent in the startup packet: no extra round trip per connection.
      options: `-c lock_timeout=${lockTimeoutS}s -c TimeZone=UTC`,
    },
  };
}

/** Creates and initializes a PostgreSQL DataSource; the caller owns `destroy()`. */
export async function openPostgresDataSource(config: DataSourceConfig): Promise<DataSource> {
  const dataSource = new DataSource(postgresDataSourceOptions(config));
  await dataSource.initialize();
  return dataSource;
}
