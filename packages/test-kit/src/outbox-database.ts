import type { DataSourceConfig } from '@outbox-inbox/database';
import { mysqlDataSourceOptions } from '@outbox-inbox/database/mysql';
import { postgresDataSourceOptions } from '@outbox-inbox/database/postgres';
import { OutboxMigrations } from '@outbox-inbox/outbox';
import { DataSource } from 'typeorm';

/**
 * A fresh database with t_outbox, its DataSource open: on PostgreSQL for a postgres:// URL,
 * else on MySQL/MariaDB. `lockWaitTimeoutS` bounds each statement's wait for a row lock.
 */
export async function openOutboxDatabase(
  url: string,
  poolSize = 10,
  { lockWaitTimeoutS }: Pick<DataSourceConfig, 'lockWaitTimeoutS'> = {},
): Promise<DataSource> {
  const config = { url, migrations: OutboxMigrations, poolSize, lockWaitTimeoutS };
  const dataSource = new DataSource(
    /^postgres(ql)?:/.test(url)
      ? postgresDataSourceOptions(config)
      : mysqlDataSourceOptions(config),
  );
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  return dataSource;
}
