import { mysqlDataSourceOptions } from '@outbox-inbox/database/mysql';
import { OutboxMigrations } from '@outbox-inbox/outbox';
import { DataSource } from 'typeorm';

/** A fresh database with t_outbox, its DataSource open. */
export async function openOutboxDatabase(url: string, poolSize = 10): Promise<DataSource> {
  const dataSource = new DataSource(
    mysqlDataSourceOptions({ url, migrations: OutboxMigrations, poolSize }),
  );
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  return dataSource;
}
