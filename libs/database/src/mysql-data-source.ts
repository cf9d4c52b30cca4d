import { DataSource, DataSourceOptions, MixedList, EntitySchema } from 'typeorm';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type EntityList = MixedList<Function | string | EntitySchema>;
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type MigrationList = MixedList<Function | string>;

/** What a service needs to reach its own MySQL/MariaDB database. */
export interface MysqlDataSourceConfig {
  /** mysql://user:password@host:port/database */
  url: string;
  entities?: EntityList;
  migrations?: MigrationList;
  /** Connections in the pool (mysql2 `connectionLimit`). */
  poolSize?: number;
  /** Longest wait for a free pooled connection before the query fails, in ms. */
  acquireTimeoutMs?: number;
  /** Prefix of the migrations table name, so each service keeps its own history. */
  migrationsTableName?: string;
}

/**
 * DataSource options shared by every service: UTC, bigints as strings (ids leave the process
 * as strings), no `synchronize` (schema changes are migrations), and a bounded pool.
 */
export function mysqlDataSourceOptions(config: MysqlDataSourceConfig): DataSourceOptions {
  return {
    type: 'mysql',
    url: config.url,
    entities: config.entities ?? [],
    migrations: config.migrations ?? [],
    migrationsTableName: config.migrationsTableName ?? 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    timezone: 'Z',
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: false,
    charset: 'utf8mb4_unicode_ci',
    poolSize: config.poolSize ?? 10,
    extra: {
      connectionLimit: config.poolSize ?? 10,
      waitForConnections: true,
      queueLimit: 0,
      connectTimeout: 10_000,
      enableKeepAlive: true,
      ...(config.acquireTimeoutMs ? { acquireTimeout: config.acquireTimeoutMs } : {}),
    },
  };
}

/** Creates and initializes a DataSource; the caller owns `destroy()`. */
export async function openMysqlDataSource(config: MysqlDataSourceConfig): Promise<DataSource> {
  const dataSource = new DataSource(mysqlDataSourceOptions(config));
  await dataSource.initialize();
  return dataSource;
}
