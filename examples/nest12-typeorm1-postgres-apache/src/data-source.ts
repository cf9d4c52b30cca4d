import { postgresDataSourceOptions } from '@outbox-inbox/database/postgres';
import { DataSource, DataSourceOptions } from 'typeorm';
import { migrations } from './migrations.js';
import { Ticket } from './ticket.entity.js';

/** The app's TypeORM options on PostgreSQL: its entity and every migration it needs. */
export function dataSourceOptions(url = process.env.DATABASE_URL ?? ''): DataSourceOptions {
  return postgresDataSourceOptions({ url, entities: [Ticket], migrations });
}

/** For the TypeORM CLI: `typeorm migration:run -d build/src/data-source.js`. */
export default new DataSource(dataSourceOptions());
