import {
  createPostgresTestDatabase,
  createTestDatabase,
  TestDatabase,
} from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { openMysqlDataSource } from '../mysql/mysql-data-source';
import { openPostgresDataSource } from '../postgres/postgres-data-source';
import { SqlEngine } from '../sql-dialect';
import { CreateOperatorAuditTable1765300000000 } from './create-operator-audit-table.migration';
import { readOperatorAudit, recordOperatorAction } from './operator-audit';

/** The MySQL/MariaDB server of the tests (MYSQL_URL, else the local one). */
const MYSQL_URL = (process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/$/, '');

const ENGINES: Array<[SqlEngine, (database: TestDatabase) => Promise<DataSource>]> = [
  [
    'mysql',
    (database) =>
      openMysqlDataSource({
        url: database.url,
        poolSize: 2,
        migrations: [CreateOperatorAuditTable1765300000000],
      }),
  ],
  [
    'postgres',
    (database) =>
      openPostgresDataSource({
        url: database.url,
        poolSize: 2,
        migrations: [CreateOperatorAuditTable1765300000000],
      }),
  ],
];

describe.each(ENGINES)('the operator audit log on %s', (engine, open) => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database =
      engine === 'mysql'
        ? await createTestDatabase(MYSQL_URL, 'audit')
        : await createPostgresTestDatabase('audit');
    dataSource = await open(database);
    await dataSource.runMigrations();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('keeps an area the caller names, and reads back that area only', async () => {
    const entry = { action: 'desk.refund', target: { id: 7 }, count: 1, reason: 'why', who: 'ann' };
    await recordOperatorAction(dataSource, { ...entry, area: 'parcel-desk' });
    await recordOperatorAction(dataSource, { ...entry, area: 'outbox', who: 'bob' });

    const records = await readOperatorAudit(dataSource, 'parcel-desk');

    expect(
      records.map(({ area, action, target, count, reason, who }) => ({
        area,
        action,
        target,
        count,
        reason,
        who,
      })),
    ).toEqual([{ ...entry, area: 'parcel-desk' }]);
  });

  it('refuses an area the table cannot keep, and records nothing', async () => {
    const area = 'a-seventeen-chars';
    await expect(
      recordOperatorAction(dataSource, {
        area,
        action: 'x',
        target: null,
        count: 0,
        reason: null,
        who: 'ann',
      }),
    ).rejects.toThrow(/area must be 1 to 16 characters/);
    await expect(readOperatorAudit(dataSource, '')).rejects.toThrow(/area must be/);
    const [{ n }] = (await dataSource.query(
      "SELECT COUNT(*) AS n FROM t_operator_audit WHERE who = 'ann' AND action = 'x'",
    )) as Array<{ n: number | string }>;
    expect(Number(n)).toBe(0);
  });
});
