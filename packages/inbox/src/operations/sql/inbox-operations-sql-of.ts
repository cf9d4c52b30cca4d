import { engineOf } from '@outbox-inbox/database';
import type { DataSource } from 'typeorm';
import { InboxOperationsSql } from './inbox-operations-sql';
import { mysqlInboxOperationsSql } from './mysql-inbox-operations-sql';
import { postgresInboxOperationsSql } from './postgres-inbox-operations-sql';

/**
 * The inbox's operator statements for `dataSource`'s engine (its TypeORM `type`: mysql,
 * mariadb or postgres; any other is refused, naming it). Both are text only: choosing one
 * loads no driver.
 */
export function inboxOperationsSqlOf(dataSource: Pick<DataSource, 'options'>): InboxOperationsSql {
  return engineOf(dataSource.options.type) === 'mysql'
    ? mysqlInboxOperationsSql
    : postgresInboxOperationsSql;
}
