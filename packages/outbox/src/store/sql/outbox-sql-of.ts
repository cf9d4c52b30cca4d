import { engineOf } from '@outbox-inbox/database';
import type { DataSource } from 'typeorm';
import { mysqlOutboxSql } from './mysql-outbox-sql';
import { OutboxSql } from './outbox-sql';
import { postgresOutboxSql } from './postgres-outbox-sql';

/**
 * The statements of t_outbox for `dataSource`'s engine (its TypeORM `type`: mysql, mariadb or
 * postgres; any other is refused, naming it). Both are text only: choosing one loads no driver.
 */
export function outboxSqlOf(dataSource: Pick<DataSource, 'options'>): OutboxSql {
  return engineOf(dataSource.options.type) === 'mysql' ? mysqlOutboxSql : postgresOutboxSql;
}
