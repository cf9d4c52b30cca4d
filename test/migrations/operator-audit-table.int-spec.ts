import {
  CreateOperatorAuditTable,
  readOperatorAudit,
  recordOperatorAction,
} from '@outbox-inbox/database';
import { openMysqlDataSource } from '@outbox-inbox/database/mysql';
import { InboxMigrations } from '@outbox-inbox/inbox';
import { OutboxMigrations } from '@outbox-inbox/outbox';
import { createTestDatabase, TestDatabase } from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { MYSQL_URL } from '../support/trading-stack';

/**
 * The operator audit log's table belongs to the packages' own migrations: the outbox's and the
 * inbox's lists each create it when absent, under names of their own, so any mix of them and
 * the standalone migration that apps listed before runs on one database.
 */
describe('the operator audit table, from the packages migrations', () => {
  const opened: DataSource[] = [];
  const databases: TestDatabase[] = [];
  // Only the database: these migrations need no broker.
  async function createDatabase(label: string): Promise<TestDatabase> {
    const database = await createTestDatabase(MYSQL_URL, label);
    databases.push(database);
    return database;
  }

  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  async function migrate(url: string, migrations: Function[]): Promise<DataSource> {
    const dataSource = await openMysqlDataSource({ url, migrations });
    opened.push(dataSource);
    await dataSource.runMigrations({ transaction: 'each' });
    return dataSource;
  }
  async function ranMigrations(dataSource: DataSource): Promise<string[]> {
    const rows = (await dataSource.query('SELECT name FROM migrations')) as Array<{
      name: string;
    }>;
    return rows.map((r) => r.name).filter((name) => /OperatorAudit/.test(name));
  }
  async function audit(dataSource: DataSource, who: string): Promise<void> {
    for (const area of ['outbox', 'inbox'] as const) {
      await recordOperatorAction(dataSource.manager, {
        area,
        action: `${area}.test`,
        target: { by: who },
        count: 1,
        reason: null,
        who,
      });
    }
  }

  afterAll(async () => {
    await Promise.allSettled(opened.map((d) => d.destroy()));
    await Promise.allSettled(databases.map((d) => d.drop()));
  });

  it('is made once when both packages lists and the standalone migration run together', async () => {
    const { url } = await createDatabase('audit_all_lists');
    const dataSource = await migrate(url, [
      ...OutboxMigrations,
      ...InboxMigrations,
      CreateOperatorAuditTable,
    ]);
    expect((await ranMigrations(dataSource)).sort()).toEqual([
      'CreateOperatorAuditTable1765300000000',
      'InboxOperatorAuditTable1765300000200',
      'OutboxOperatorAuditTable1765300000100',
    ]);
    await audit(dataSource, 'ops-anna');
    expect((await readOperatorAudit(dataSource, 'outbox')).map((r) => r.who)).toEqual(['ops-anna']);
    expect((await readOperatorAudit(dataSource, 'inbox')).map((r) => r.who)).toEqual(['ops-anna']);
    // Nothing is pending: a second start runs none of them again.
    expect(await dataSource.showMigrations()).toBe(false);
  });

  it('keeps the table and its records of a deployment that listed the standalone migration', async () => {
    const { url } = await createDatabase('audit_upgrade');
    // Yesterday's app: the outbox's earlier list and the standalone migration, with a record.
    const yesterdays = OutboxMigrations.filter((m) => !/OperatorAudit/.test(m.name));
    const before = await migrate(url, [...yesterdays, CreateOperatorAuditTable]);
    await audit(before, 'ops-yesterday');
    await before.destroy();
    opened.splice(opened.indexOf(before), 1);

    // Today's app lists the packages' migrations only.
    const after = await migrate(url, [...OutboxMigrations, ...InboxMigrations]);
    expect((await ranMigrations(after)).sort()).toEqual([
      'CreateOperatorAuditTable1765300000000',
      'InboxOperatorAuditTable1765300000200',
      'OutboxOperatorAuditTable1765300000100',
    ]);
    await audit(after, 'ops-today');
    expect((await readOperatorAudit(after, 'outbox')).map((r) => r.who)).toEqual([
      'ops-today',
      'ops-yesterday',
    ]);
  });

  it.each([
    ['the outbox', OutboxMigrations],
    ['the inbox', InboxMigrations],
  ])('is made by %s migrations alone', async (name, migrations) => {
    const { url } = await createDatabase(`audit_${name.slice(4)}_only`);
    const dataSource = await migrate(url, migrations);
    await audit(dataSource, 'ops-anna');
    expect(await readOperatorAudit(dataSource, 'inbox')).toHaveLength(1);
  });
});
