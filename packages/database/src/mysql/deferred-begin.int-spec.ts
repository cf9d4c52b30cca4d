import { startTestEnvironment, TestEnvironment } from '@outbox-inbox/test-kit';
import { DataSource, QueryRunner } from 'typeorm';
import { openMysqlDataSource } from './mysql-data-source';
import { runTransaction } from '../run-transaction';

/** The packets a query runner's connection writes to the server. */
async function countWrites(runner: QueryRunner): Promise<{ writes: number }> {
  const connection = (await runner.connect()) as { write(buffer: Buffer): void };
  const counter = { writes: 0 };
  const write = connection.write.bind(connection);
  connection.write = (buffer: Buffer) => {
    counter.writes += 1;
    write(buffer);
  };
  return counter;
}

describe('START TRANSACTION deferred to the first statement (mysqlDataSourceOptions)', () => {
  let env: TestEnvironment;
  let dataSource: DataSource;
  let url: string;

  const names = async () =>
    ((await dataSource.query('SELECT name FROM t_item ORDER BY name')) as Array<{ name: string }>)
      .map((r) => r.name)
      .join(',');

  /** Runs `work` on one connection of the pool, handed back afterwards. */
  async function onOneConnection(work: (runner: QueryRunner) => Promise<void>): Promise<void> {
    const runner = dataSource.createQueryRunner();
    try {
      await work(runner);
    } finally {
      await runner.release();
    }
  }

  beforeAll(async () => {
    env = await startTestEnvironment();
    url = (await env.createDatabase('deferred_begin')).url;
    dataSource = await openMysqlDataSource({ url, poolSize: 2 });
    await dataSource.query(
      'CREATE TABLE t_item (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(20) NOT NULL UNIQUE)',
    );
  });

  afterEach(() => dataSource.query('DELETE FROM t_item'));

  afterAll(async () => {
    await dataSource?.destroy();
    await env?.stop();
  });

  it('sends a transaction of two statements in three round trips, not four', async () => {
    await onOneConnection(async (runner) => {
      const counter = await countWrites(runner);
      await runner.startTransaction();
      expect(counter.writes).toBe(0);
      await runner.query("INSERT INTO t_item (name) VALUES ('a')");
      await runner.query("INSERT INTO t_item (name) VALUES ('b')");
      await runner.commitTransaction();
      expect(counter.writes).toBe(3);
    });
    expect(await names()).toBe('a,b');
  });

  it('sends the isolation level with the START TRANSACTION: a READ COMMITTED transaction of two statements in three round trips, not four', async () => {
    await onOneConnection(async (runner) => {
      const counter = await countWrites(runner);
      await runner.startTransaction('READ COMMITTED');
      expect(counter.writes).toBe(0);
      await runner.query("INSERT INTO t_item (name) VALUES ('a')");
      await runner.query("INSERT INTO t_item (name) VALUES ('b')");
      await runner.commitTransaction();
      expect(counter.writes).toBe(3);
    });
    expect(await names()).toBe('a,b');
  });

  it('runs the transaction at the level it asked for, and the next one at the session level', async () => {
    await dataSource.query("INSERT INTO t_item (name) VALUES ('before')");
    const other = await openMysqlDataSource({ url, poolSize: 1 });
    /** The name read twice in one transaction at `level`, renamed by another session between. */
    const readTwice = (level: 'READ COMMITTED' | 'REPEATABLE READ', to: string) =>
      dataSource.transaction(level, async (manager) => {
        const read = async () =>
          ((await manager.query('SELECT name FROM t_item')) as Array<{ name: string }>)[0].name;
        const first = await read();
        await other.query('UPDATE t_item SET name = ?', [to]);
        return [first, await read()];
      });
    try {
      // The first read opened REPEATABLE READ's snapshot: the second sees the same row.
      expect(await readTwice('REPEATABLE READ', 'after')).toEqual(['before', 'before']);
      expect(await readTwice('READ COMMITTED', 'later')).toEqual(['after', 'later']);
      // The one-time level went with its transaction: the pool's sessions are READ COMMITTED.
      await onOneConnection(async (runner) => {
        await runner.startTransaction();
        const [level] = await runner.query('SELECT @@tx_isolation AS isolation');
        await runner.commitTransaction();
        expect(level).toEqual({ isolation: 'READ-COMMITTED' });
      });
    } finally {
      await other.destroy();
    }
  });

  it('gives each statement its own result, one statement or several', async () => {
    const results = await runTransaction(dataSource, async (manager) => [
      (await manager.query("INSERT INTO t_item (name) VALUES ('a')")) as { insertId: number },
      await manager.query("SELECT name FROM t_item WHERE name = 'a'"),
    ]);
    expect(results[0]).toMatchObject({ affectedRows: 1, insertId: expect.any(Number) });
    expect(results[1]).toEqual([{ name: 'a' }]);
    const several = await runTransaction(dataSource, (manager) =>
      manager.query("INSERT INTO t_item (name) VALUES ('b'); SELECT COUNT(*) AS n FROM t_item"),
    );
    expect(several).toEqual([expect.objectContaining({ affectedRows: 1 }), [{ n: '2' }]]);
  });

  it('rolls the first statement back with the rest', async () => {
    await expect(
      runTransaction(dataSource, async (manager) => {
        await manager.query("INSERT INTO t_item (name) VALUES ('a')");
        throw new Error('the handler failed');
      }),
    ).rejects.toThrow('the handler failed');
    expect(await names()).toBe('');
  });

  it('reports a failed first statement as its own error, inside the open transaction', async () => {
    await dataSource.query("INSERT INTO t_item (name) VALUES ('taken')");
    await onOneConnection(async (runner) => {
      await runner.startTransaction();
      await expect(
        runner.query("INSERT INTO t_item (name) VALUES ('taken')"),
      ).rejects.toMatchObject({ code: 'ER_DUP_ENTRY' });
      await runner.query("INSERT INTO t_item (name) VALUES ('after')");
      // Still in the transaction the failed statement opened: the rollback takes 'after' back.
      await runner.rollbackTransaction();
    });
    expect(await names()).toBe('taken');
  });

  it('commits an empty transaction and runs a streamed first statement inside the transaction', async () => {
    await runTransaction(dataSource, async () => undefined);
    await onOneConnection(async (runner) => {
      await runner.startTransaction();
      await runner.query("INSERT INTO t_item (name) VALUES ('x')");
      await runner.commitTransaction();
      await runner.startTransaction();
      const stream = await runner.stream("SELECT name FROM t_item WHERE name = 'x'");
      const rows: unknown[] = [];
      for await (const row of stream) rows.push(row);
      expect(rows).toEqual([{ name: 'x' }]);
      await runner.query("INSERT INTO t_item (name) VALUES ('y')");
      await runner.rollbackTransaction();
    });
    expect(await names()).toBe('x');
  });

  it('hands no open transaction to the borrower waiting for a connection that came back with only a START TRANSACTION', async () => {
    const single = await openMysqlDataSource({ url, poolSize: 1 });
    const other = await openMysqlDataSource({ url, poolSize: 1 });
    try {
      const runner = single.createQueryRunner();
      await runner.connect();
      await runner.startTransaction('SERIALIZABLE');
      // Waits for the pool's only connection, and gets it straight from the release below.
      const waiting = single.query("INSERT INTO t_item (name) VALUES ('p')");
      await runner.release();
      await waiting;
      // Autocommitted: another pool sees it, and the borrower is in no transaction.
      expect(await other.query('SELECT name FROM t_item')).toEqual([{ name: 'p' }]);
      const [level] = await single.transaction((manager) =>
        manager.query('SELECT @@in_transaction AS open, @@tx_isolation AS isolation'),
      );
      // The one-time SERIALIZABLE went with the abandoned transaction, not into the next one.
      expect(level).toEqual({ open: '1', isolation: 'READ-COMMITTED' });
    } finally {
      await single.destroy();
      await other.destroy();
    }
  });

  it('leaves prepared statements alone and names the failing statement, not the BEGIN, in errors', async () => {
    await dataSource.query("INSERT INTO t_item (name) VALUES ('taken')");
    const failed = await runTransaction(dataSource, (manager) =>
      manager.query("INSERT INTO t_item (name) VALUES ('taken')"),
    ).catch((error: unknown) => error as { sql?: string; driverError?: { sql?: string } });
    expect(failed).toMatchObject({ code: 'ER_DUP_ENTRY' });
    expect(failed.driverError?.sql).toBe("INSERT INTO t_item (name) VALUES ('taken')");
    await onOneConnection(async (runner) => {
      const connection = (await runner.connect()) as {
        execute(
          sql: string,
          values: unknown[],
          cb: (error: Error | null, rows: unknown) => void,
        ): void;
      };
      await runner.startTransaction();
      const rows = await new Promise((resolve, reject) =>
        connection.execute('SELECT name FROM t_item WHERE name = ?', ['taken'], (error, result) =>
          error ? reject(error) : resolve(result),
        ),
      );
      expect(rows).toEqual([{ name: 'taken' }]);
      await runner.query("INSERT INTO t_item (name) VALUES ('z')");
      await runner.rollbackTransaction();
    });
    expect(await names()).toBe('taken');
    // A prepared START TRANSACTION is not a text query: it runs as sent, and the pool gets its
    // connection back when it ends (answered without running, it would never end).
    const single = await openMysqlDataSource({ url, poolSize: 1 });
    try {
      const pool = (single.driver as unknown as { pool: PreparingPool }).pool;
      const execute = (sql: string) =>
        new Promise((resolve, reject) =>
          pool.execute(sql, [], (error) => (error ? reject(error) : resolve(undefined))),
        );
      await execute('START TRANSACTION');
      await execute('ROLLBACK');
      expect(await single.query('SELECT @@in_transaction AS open')).toEqual([{ open: '0' }]);
    } finally {
      await single.destroy();
    }
  });
});

interface PreparingPool {
  execute(sql: string, values: unknown[], cb: (error: Error | null) => void): void;
}
