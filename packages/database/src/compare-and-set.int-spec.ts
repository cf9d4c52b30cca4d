import {
  createPostgresTestDatabase,
  createTestDatabase,
  TestDatabase,
} from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { compareAndSet } from './compare-and-set';
import { openMysqlDataSource } from './mysql/mysql-data-source';
import { openPostgresDataSource } from './postgres/postgres-data-source';
import { runTransaction } from './run-transaction';
import { SqlEngine } from './sql-dialect';
import { runStatements } from './run-statements';

class LostRace extends Error {}

/** The MySQL/MariaDB server of the tests (MYSQL_URL, else the local one). */
const MYSQL_URL = (process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/$/, '');

/** A database of its own on each engine, and a DataSource on it. */
const ENGINES: Array<
  [SqlEngine, () => Promise<{ database: TestDatabase; dataSource: DataSource }>]
> = [
  [
    'mysql',
    async () => {
      const database = await createTestDatabase(MYSQL_URL, 'cas');
      return {
        database,
        dataSource: await openMysqlDataSource({ url: database.url, poolSize: 2 }),
      };
    },
  ],
  [
    'postgres',
    async () => {
      const database = await createPostgresTestDatabase('cas');
      return {
        database,
        dataSource: await openPostgresDataSource({ url: database.url, poolSize: 2 }),
      };
    },
  ],
];

describe.each(ENGINES)('compareAndSet on %s', (engine, open) => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const row = async () =>
    ((await dataSource.query('SELECT status, version FROM t_thing WHERE id = 1')) as unknown[])[0];
  const move = (status: string, from: number) =>
    compareAndSet(
      {
        table: 't_thing',
        set: { status, version: from + 1 },
        expected: { id: 1, version: from },
        lost: () => new LostRace(`thing 1 is no longer at version ${from}`),
      },
      engine,
    );

  beforeAll(async () => {
    ({ database, dataSource } = await open());
    await dataSource.query(
      'CREATE TABLE t_thing (id INT PRIMARY KEY, status VARCHAR(10) NOT NULL, version INT NOT NULL)',
    );
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });
  beforeEach(async () => {
    await dataSource.query('DELETE FROM t_thing');
    await dataSource.query("INSERT INTO t_thing VALUES (1, 'NEW', 1)");
  });

  it('writes the row while the expected version holds', async () => {
    await runTransaction(dataSource, (manager) => runStatements(manager, [move('PAID', 1)]));
    expect(await row()).toEqual({ status: 'PAID', version: 2 });
  });

  it('throws lost() for a stale version, and the transaction takes back what went with it', async () => {
    await runStatements(dataSource.manager, [move('PAID', 1)]);
    await expect(
      runTransaction(dataSource, (manager) =>
        runStatements(manager, [
          {
            sql: "UPDATE t_thing SET status = 'SIDE' WHERE id = 1",
            params: [],
            read: () => undefined,
          },
          move('CANCELLED', 1),
        ]),
      ),
    ).rejects.toBeInstanceOf(LostRace);
    expect(await row()).toEqual({ status: 'PAID', version: 2 });
  });

  it('of two writers from the same version, exactly one wins', async () => {
    const outcomes = await Promise.allSettled(
      ['PAID', 'CANCELLED'].map((status) =>
        runTransaction(dataSource, (manager) => runStatements(manager, [move(status, 1)])),
      ),
    );
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await row()).toMatchObject({ version: 2 });
  });

  it('refuses a name that is not a plain identifier', () => {
    expect(() =>
      compareAndSet({
        table: 't; DROP TABLE x',
        set: { a: 1 },
        expected: { id: 1 },
        lost: () => new LostRace(),
      }),
    ).toThrow('not a plain identifier');
  });
});
