import {
  createDatabaseUser,
  createPostgresTestDatabase,
  createTestDatabase,
  DatabaseUser,
  TestDatabase,
} from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { deploymentFaultOf } from './deployment-fault';
import { openMysqlDataSource } from './mysql/mysql-data-source';
import { openPostgresDataSource } from './postgres/postgres-data-source';
import { probeSchema, RequiredTable } from './schema-probe';
import { isTransientDbError } from './transient-error';

/** The MySQL/MariaDB server of the tests (MYSQL_URL, else the local one). */
const MYSQL_URL = (process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/$/, '');

const ENGINES = {
  mysql: {
    create: (label: string) => createTestDatabase(MYSQL_URL, label),
    open: (url: string) => openMysqlDataSource({ url, poolSize: 2 }),
  },
  postgres: {
    create: (label: string) => createPostgresTestDatabase(label),
    open: (url: string) => openPostgresDataSource({ url, poolSize: 2 }),
  },
};

const T_ITEM: RequiredTable = {
  table: 't_item',
  columns: ['name', 'id', 'qty'],
  writes: ['INSERT', 'UPDATE', 'DELETE'],
};

/** The error a statement fails with. */
async function failureOf(dataSource: DataSource, sql: string): Promise<unknown> {
  try {
    await dataSource.query(sql);
  } catch (error) {
    return error;
  }
  throw new Error(`${sql} did not fail`);
}

describe.each(['mysql', 'postgres'] as const)('deployment faults on %s', (engine) => {
  let database: TestDatabase;
  let owner: DataSource;
  let user: DatabaseUser;
  let asUser: DataSource;

  beforeAll(async () => {
    database = await ENGINES[engine].create('deploy_fault');
    owner = await ENGINES[engine].open(database.url);
    await owner.query('CREATE TABLE t_item (id INT PRIMARY KEY, name VARCHAR(20), qty INT)');
    user = await createDatabaseUser(owner, database.url);
    await user.grant('SELECT', 't_item');
    asUser = await ENGINES[engine].open(user.url);
  });

  afterAll(async () => {
    await asUser?.destroy();
    await user?.drop();
    await owner?.destroy();
    await database?.drop();
  });

  it('names a missing table, a missing column and a refused privilege from the real errors', async () => {
    const table = await failureOf(owner, 'SELECT id FROM t_absent');
    const column = await failureOf(owner, 'SELECT id, colour FROM t_item');
    const grant = await failureOf(asUser, "INSERT INTO t_item VALUES (1, 'a', 1)");

    expect(deploymentFaultOf(table)).toEqual({
      kind: 'table',
      subject: 't_absent',
      code: engine === 'mysql' ? 'ER_NO_SUCH_TABLE' : '42P01',
    });
    expect(deploymentFaultOf(column)).toEqual({
      kind: 'column',
      subject: 'colour',
      code: engine === 'mysql' ? 'ER_BAD_FIELD_ERROR' : '42703',
    });
    expect(deploymentFaultOf(grant)).toEqual({
      kind: 'grant',
      subject: engine === 'mysql' ? 'INSERT on t_item' : 'table t_item',
      code: engine === 'mysql' ? 'ER_TABLEACCESS_DENIED_ERROR' : '42501',
    });
    // None of them is worth retrying in place, nor is a deployment fault a transient one.
    for (const error of [table, column, grant]) expect(isTransientDbError(error)).toBe(false);
  });

  it('knows a syntax error or a broken constraint is no deployment fault', async () => {
    await owner.query("INSERT INTO t_item VALUES (1, 'a', 1)");
    try {
      expect(deploymentFaultOf(await failureOf(owner, 'SELEC 1'))).toBeUndefined();
      const duplicate = await failureOf(owner, "INSERT INTO t_item VALUES (1, 'b', 2)");
      expect(deploymentFaultOf(duplicate)).toBeUndefined();
    } finally {
      await owner.query('DELETE FROM t_item');
    }
  });

  it('probes tables, columns and privileges as the user sees them, and sees a GRANT take effect', async () => {
    expect(await probeSchema(owner, [T_ITEM])).toEqual([]);
    expect(
      await probeSchema(owner, [
        { table: 't_absent', columns: ['id'], writes: ['INSERT'] },
        { ...T_ITEM, columns: [...T_ITEM.columns, 'colour'] },
      ]),
    ).toMatchObject([
      { kind: 'table', subject: 't_absent' },
      { kind: 'column', subject: 'colour' },
    ]);

    expect(await probeSchema(asUser, [T_ITEM])).toMatchObject([
      { kind: 'grant', subject: 'INSERT on t_item' },
      { kind: 'grant', subject: 'UPDATE on t_item' },
      { kind: 'grant', subject: 'DELETE on t_item' },
    ]);
    await user.grant('INSERT, UPDATE', 't_item');
    expect(await probeSchema(asUser, [T_ITEM])).toMatchObject([
      { kind: 'grant', subject: 'DELETE on t_item' },
    ]);
    await user.grant('DELETE', 't_item');
    expect(await probeSchema(asUser, [T_ITEM])).toEqual([]);
    // The probe touched no row.
    expect(await owner.query('SELECT id FROM t_item')).toEqual([]);
  });

  it('rejects when the database cannot answer at all', async () => {
    const closed = await ENGINES[engine].open(database.url);
    await closed.destroy();
    await expect(probeSchema(closed, [T_ITEM])).rejects.toThrow();
  });
});
