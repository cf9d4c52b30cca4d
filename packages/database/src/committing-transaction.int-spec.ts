import { startTestEnvironment, TestEnvironment } from '@outbox-inbox/test-kit';
import { DataSource, DataSourceOptions } from 'typeorm';
import { transactionCommittingWith } from './committing-transaction';
import { mysqlDataSourceOptions } from './mysql/mysql-data-source';
import type { Statement } from './statements';

const insert = (name: string): Statement<number> => ({
  sql: 'INSERT INTO t_item (name) VALUES (?)',
  params: [name],
  read: (result) => (result as { affectedRows: number }).affectedRows,
});

describe.each([
  ['in one query with the COMMIT (multipleStatements)', true, 2],
  ['one query each, then COMMIT (a pool without multipleStatements)', false, 6],
])('transactionCommittingWith, %s', (_mode, multipleStatements, roundTrips) => {
  let env: TestEnvironment;
  let dataSource: DataSource;
  /** Packets the pool's only connection has written to the server. */
  const counter = { writes: 0 };

  const names = async () =>
    ((await dataSource.query('SELECT name FROM t_item ORDER BY name')) as Array<{ name: string }>)
      .map((r) => r.name)
      .join(',');
  const inTransaction = async () =>
    ((await dataSource.query('SELECT @@in_transaction AS open')) as Array<{ open: string }>)[0]
      .open;

  beforeAll(async () => {
    env = await startTestEnvironment();
    const { url } = await env.createDatabase('committing');
    // One connection, so every call here runs on the one whose writes are counted.
    dataSource = new DataSource({
      ...mysqlDataSourceOptions({ url, poolSize: 1 }),
      multipleStatements,
    } as DataSourceOptions);
    await dataSource.initialize();
    await dataSource.query(
      'CREATE TABLE t_item (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) NOT NULL UNIQUE)',
    );
    const runner = dataSource.createQueryRunner();
    const connection = (await runner.connect()) as { write(buffer: Buffer): void };
    const write = connection.write.bind(connection);
    connection.write = (buffer: Buffer) => {
      counter.writes += 1;
      write(buffer);
    };
    await runner.release();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await env?.stop();
  });
  beforeEach(async () => {
    await dataSource.query('DELETE FROM t_item');
    counter.writes = 0;
  });

  it(`locks, reads and writes in ${roundTrips} round trips, and commits`, async () => {
    await dataSource.query("INSERT INTO t_item (name) VALUES ('a')");
    counter.writes = 0;
    const [added, renamed] = await transactionCommittingWith(
      dataSource,
      'READ COMMITTED',
      async (transaction) => {
        const rows = (await transaction.query(
          'SELECT id FROM t_item ORDER BY id FOR UPDATE SKIP LOCKED',
        )) as Array<{ id: number }>;
        return transaction.commitWith([
          insert('b'),
          {
            sql: "UPDATE t_item SET name = 'c' WHERE id = ?",
            params: [rows[0].id],
            read: (result: unknown) => (result as { affectedRows: number }).affectedRows,
          },
        ]);
      },
    );
    expect(counter.writes).toBe(roundTrips);
    expect([added, renamed]).toEqual([1, 1]);
    expect(await names()).toBe('b,c');
    expect(await inTransaction()).toBe('0');
  });

  it('rolls the whole transaction back when a statement sent with the COMMIT fails', async () => {
    await dataSource.query("INSERT INTO t_item (name) VALUES ('taken')");
    await expect(
      transactionCommittingWith(dataSource, 'READ COMMITTED', async (transaction) => {
        await transaction.query("INSERT INTO t_item (name) VALUES ('first')");
        return transaction.commitWith([insert('second'), insert('taken'), insert('third')]);
      }),
    ).rejects.toMatchObject({ code: 'ER_DUP_ENTRY' });
    expect(await names()).toBe('taken');
    expect(await inTransaction()).toBe('0');
  });

  it('commits alone when nothing is handed to the COMMIT, and rolls back when the work fails', async () => {
    const result = await transactionCommittingWith(dataSource, 'READ COMMITTED', async (tx) => {
      await tx.query("INSERT INTO t_item (name) VALUES ('kept')");
      return 'done';
    });
    expect(result).toBe('done');
    await expect(
      transactionCommittingWith(dataSource, 'READ COMMITTED', async (tx) => {
        await tx.query("INSERT INTO t_item (name) VALUES ('lost')");
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect(await names()).toBe('kept');
    expect(await inTransaction()).toBe('0');
  });

  it('runs at the isolation level it was given', async () => {
    const [level] = (await transactionCommittingWith(dataSource, 'REPEATABLE READ', (tx) =>
      tx.query('SELECT @@in_transaction AS open'),
    )) as unknown[];
    expect(level).toEqual({ open: '1' });
    await dataSource.query("INSERT INTO t_item (name) VALUES ('before')");
    const other = new DataSource({ ...dataSource.options, poolSize: 1 } as DataSourceOptions);
    await other.initialize();
    try {
      const seen = await transactionCommittingWith(dataSource, 'REPEATABLE READ', async (tx) => {
        const read = async () =>
          ((await tx.query('SELECT name FROM t_item')) as Array<{ name: string }>)[0].name;
        const first = await read();
        await other.query("UPDATE t_item SET name = 'after'");
        return [first, await read()];
      });
      // One snapshot for the whole transaction: the pool's READ COMMITTED would see 'after'.
      expect(seen).toEqual(['before', 'before']);
    } finally {
      await other.destroy();
    }
  });
});
