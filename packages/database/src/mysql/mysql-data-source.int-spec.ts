import { startTestEnvironment, TestEnvironment } from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { openMysqlDataSource } from './mysql-data-source';
import { runTransaction } from '../run-transaction';

describe('openMysqlDataSource({ lockWaitTimeoutS })', () => {
  let env: TestEnvironment;
  let url: string;
  const opened: DataSource[] = [];

  async function open(lockWaitTimeoutS?: number): Promise<DataSource> {
    const dataSource = await openMysqlDataSource({ url, poolSize: 3, lockWaitTimeoutS });
    opened.push(dataSource);
    return dataSource;
  }

  /** The setting as seen by `n` connections of the pool at once (each holds a transaction). */
  async function settingsOfConnections(dataSource: DataSource, n: number): Promise<number[]> {
    let arrived = 0;
    let allArrived!: () => void;
    const together = new Promise<void>((resolve) => (allArrived = resolve));
    return Promise.all(
      Array.from({ length: n }, () =>
        dataSource.transaction(async (manager) => {
          const [row] = await manager.query('SELECT @@SESSION.innodb_lock_wait_timeout AS s');
          if (++arrived === n) allArrived();
          await together;
          return Number(row.s);
        }),
      ),
    );
  }

  beforeAll(async () => {
    env = await startTestEnvironment();
    url = (await env.createDatabase('lockwait')).url;
  });

  afterAll(async () => {
    for (const dataSource of opened) await dataSource.destroy();
    await env?.stop();
  });

  it('sets innodb_lock_wait_timeout on every connection of the pool', async () => {
    const dataSource = await open(2);
    expect(await settingsOfConnections(dataSource, 3)).toEqual([2, 2, 2]);
    const [server] = await dataSource.query('SELECT @@GLOBAL.innodb_lock_wait_timeout AS s');
    expect(Number(server.s)).not.toBe(2);
    expect(await settingsOfConnections(await open(), 2)).toEqual([
      Number(server.s),
      Number(server.s),
    ]);
  });

  it('runs every transaction at READ COMMITTED: a second read sees what another commit changed', async () => {
    const dataSource = await open();
    await dataSource.query('CREATE TABLE t_iso (id INT PRIMARY KEY, n INT NOT NULL)');
    await dataSource.query('INSERT INTO t_iso VALUES (1, 0)');
    const reads = await runTransaction(dataSource, async (manager) => {
      const [before] = await manager.query('SELECT n FROM t_iso WHERE id = 1');
      // Another connection of the pool commits meanwhile (REPEATABLE READ would hide it).
      await dataSource.query('UPDATE t_iso SET n = 1 WHERE id = 1');
      const [after] = await manager.query('SELECT n FROM t_iso WHERE id = 1');
      return [Number(before.n), Number(after.n)];
    });
    expect(reads).toEqual([0, 1]);
  });

  it('fails a statement waiting longer for a row lock with 1205, after about that long', async () => {
    const dataSource = await open(1);
    await dataSource.query('CREATE TABLE t_hot (id INT PRIMARY KEY, n INT NOT NULL)');
    await dataSource.query('INSERT INTO t_hot VALUES (1, 0)');
    const holder = dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    await holder.query('SELECT n FROM t_hot WHERE id = 1 FOR UPDATE');
    const started = Date.now();
    try {
      await expect(
        runTransaction(dataSource, (m) => m.query('UPDATE t_hot SET n = n + 1 WHERE id = 1'), {
          maxAttempts: 1,
          baseDelayMs: 0,
          maxDelayMs: 0,
        }),
      ).rejects.toMatchObject({ errno: 1205 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    } finally {
      await holder.rollbackTransaction();
      await holder.release();
    }
    expect(await dataSource.query('SELECT n FROM t_hot')).toEqual([{ n: 0 }]);
  });

  it("gives TypeORM's per-query promise() one wrapper per pooled connection, which still queries", async () => {
    const dataSource = await open();
    const runner = dataSource.createQueryRunner();
    try {
      const connection = (await runner.connect()) as {
        promise(impl?: PromiseConstructor): { query(sql: string): Promise<[unknown[]]> };
      };
      const wrapper = connection.promise();
      // Without the reuse, mysql2 builds (and resolves the module of) a new wrapper per call.
      expect(connection.promise()).toBe(wrapper);
      expect(connection.promise(Promise)).not.toBe(wrapper);
      const [[row]] = await wrapper.query('SELECT 41 + 1 AS n');
      expect(row).toEqual({ n: 42 });
      expect(await runner.query('SELECT 2 AS n')).toEqual([{ n: 2 }]);
    } finally {
      await runner.release();
    }
  });

  it('refuses a lock wait that is not a positive whole number of seconds', async () => {
    await expect(openMysqlDataSource({ url, lockWaitTimeoutS: 0.5 })).rejects.toThrow(RangeError);
  });
});
