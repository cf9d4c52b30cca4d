import { engineOf } from '@outbox-inbox/database';
import type { DataSource } from 'typeorm';
import { InboxApplySql } from './inbox-apply-sql';
import { mysqlInboxApplySql } from './mysql-inbox-apply-sql';
import { postgresInboxApplySql } from './postgres-inbox-apply-sql';

/**
 * The apply step's statements for `dataSource`'s engine (its TypeORM `type`: mysql, mariadb or
 * postgres; any other is refused, naming it). Both are text only: choosing one loads no driver.
 */
export function inboxApplySqlOf(dataSource: Pick<DataSource, 'options'>): InboxApplySql {
  return engineOf(dataSource.options.type) === 'mysql' ? mysqlInboxApplySql : postgresInboxApplySql;
}
