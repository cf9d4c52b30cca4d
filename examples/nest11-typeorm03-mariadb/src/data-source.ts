import type { DataSourceConfig } from '@outbox-inbox/database';
import type * as Mysql from '@outbox-inbox/database/mysql';
import type * as Postgres from '@outbox-inbox/database/postgres';
import type { DataSourceOptions } from 'typeorm';

/**
 * TypeORM's options for the engine of `config.url` (postgres://… or mysql://…). Your app runs
 * on one engine and imports its subpath; the example runs on both, and since each subpath loads
 * its engine's driver, it requires only the one its URL names: the other is not installed.
 */
export function dataSourceOptions(config: DataSourceConfig): DataSourceOptions {
  /* eslint-disable @typescript-eslint/no-require-imports -- see above */
  if (config.url.startsWith('postgres')) {
    const postgres = require('@outbox-inbox/database/postgres') as typeof Postgres;
    return postgres.postgresDataSourceOptions(config);
  }
  const mysql = require('@outbox-inbox/database/mysql') as typeof Mysql;
  return mysql.mysqlDataSourceOptions(config);
  /* eslint-enable @typescript-eslint/no-require-imports */
}
