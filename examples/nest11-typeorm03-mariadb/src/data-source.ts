import { mysqlDataSourceOptions } from '@outbox-inbox/database/mysql';
import { DataSource, DataSourceOptions } from 'typeorm';
import { migrations } from './migrations';
import { Ticket } from './ticket.entity';

/** The app's TypeORM options on MySQL/MariaDB: its entity and every migration it needs. */
export function dataSourceOptions(url = process.env.DATABASE_URL ?? ''): DataSourceOptions {
  return mysqlDataSourceOptions({ url, entities: [Ticket], migrations });
}

/** For the TypeORM CLI: `typeorm migration:run -d build/src/data-source.js`. */
export default new DataSource(dataSourceOptions());
