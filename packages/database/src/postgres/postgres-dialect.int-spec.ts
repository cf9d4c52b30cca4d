import { createPostgresTestDatabase, TestDatabase, waitFor } from '@outbox-inbox/test-kit';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { sqlDialectOf } from '../dialect-of';
import { runTransaction } from '../run-transaction';
import { runStatements } from '../run-statements';
import type { Statement } from '../statements';
import { isDuplicateKeyError, isTransientDbError } from '../transient-error';
import { ensurePostgresDatabase } from './ensure-postgres-database';
import { openPostgresDataSource } from './postgres-data-source';
import { postgresAffectedRows } from './postgres-dialect';

const sql = (text: string, params: unknown[] = []): Statement<unknown> => ({
  sql: text,
  params,
  read: (result) => result,
});

/** Resolves when `release` is called: a step of one transaction that another waits for. */
const gate = () => {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { opened, release };
};

describe('the PostgreSQL dialect, on a real server', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let admin: Client;
  const counters = async () =>
    (await dataSource.query('SELECT id, n FROM t_counter ORDER BY id')) as Array<{
      id: number;
      n: number;
    }>;

  beforeAll(async () => {
    database = await createPostgresTestDatabase('pg_dialect');
    dataSource = await openPostgresDataSource({ url: database.url, poolSize: 4 });
    await dataSource.query(
      'CREATE TABLE t_counter (id INT PRIMARY KEY, n INT NOT NULL, tag TEXT UNIQUE)',
    );
    admin = new Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await dataSource?.destroy();
    await database?.drop();
  });
  beforeEach(async () => {
    await dataSource.query('DELETE FROM t_counter');
    await dataSource.query('INSERT INTO t_counter (id, n) VALUES (1, 0), (2, 0)');
  });

  it('is the dialect of a postgres DataSource, and sessions end lock waits and run in UTC', async () => {
    expect(sqlDialectOf(dataSource).engine).toBe('postgres');
    const [lock] = (await dataSource.query('SHOW lock_timeout')) as Array<{ lock_timeout: string }>;
    const [zone] = (await dataSource.query('SHOW TimeZone')) as Array<{ TimeZone: string }>;
    expect(lock.lock_timeout).toBe('50s');
    expect(zone.TimeZone).toBe('UTC');
  });

  it('creates a missing database once, also when asked twice at the same time', async () => {
    const url = `${database.url}_made`;
    try {
      await Promise.all([ensurePostgresDatabase(url), ensurePostgresDatabase(url)]);
      await ensurePostgresDatabase(url);
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [
        `${database.name}_made`,
      ]);
      expect(found.rowCount).toBe(1);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${database.name}_made" WITH (FORCE)`);
    }
  });

  it('runs statements one by one in the transaction, and counts what each write changed', async () => {
    const [updated, inserted, duplicate, rows] = await runTransaction(dataSource, (manager) =>
      runStatements(manager, [
        sql('UPDATE t_counter SET n = n + 1 WHERE id IN ($1, $2)', [1, 2]),
        sql(
          "INSERT INTO t_counter (id, n, tag) VALUES (3, 0, 'a') ON CONFLICT DO NOTHING RETURNING 1",
        ),
        sql(
          "INSERT INTO t_counter (id, n, tag) VALUES (4, 0, 'a') ON CONFLICT DO NOTHING RETURNING 1",
        ),
        sql('SELECT id, n FROM t_counter ORDER BY id'),
      ]),
    );
    expect(postgresAffectedRows(updated)).toBe(2);
    expect(postgresAffectedRows(inserted)).toBe(1);
    expect(postgresAffectedRows(duplicate)).toBe(0); // a duplicate leaves the transaction usable
    expect(rows).toEqual([
      { id: 1, n: 1 },
      { id: 2, n: 1 },
      { id: 3, n: 0 },
    ]);
  });

  it('stops at the first failing statement, rejects with it, and rolls the transaction back', async () => {
    const failure = await runTransaction(dataSource, (manager) =>
      runStatements(manager, [
        sql('UPDATE t_counter SET n = 9 WHERE id = 1'),
        sql('INSERT INTO t_counter (id, n) VALUES (2, 0)'),
        sql('UPDATE t_counter SET n = 9 WHERE id = 2'),
      ]),
    ).catch((error: unknown) => error);
    expect(isDuplicateKeyError(failure)).toBe(true);
    expect(isTransientDbError(failure)).toBe(false);
    expect(await counters()).toEqual([
      { id: 1, n: 0 },
      { id: 2, n: 0 },
    ]);
  });

  it('retries the loser of a real deadlock (40P01) whole, and both transactions count once', async () => {
    const firstLocked = gate();
    const secondLocked = gate();
    let attempts = 0;
    const crossing = (
      mine: number,
      theirs: number,
      locked: ReturnType<typeof gate>,
      other: ReturnType<typeof gate>,
    ) =>
      runTransaction(dataSource, async (manager) => {
        attempts++;
        await manager.query('UPDATE t_counter SET n = n + 1 WHERE id = $1', [mine]);
        locked.release();
        await other.opened;
        await manager.query('UPDATE t_counter SET n = n + 1 WHERE id = $1', [theirs]);
      });
    await Promise.all([
      crossing(1, 2, firstLocked, secondLocked),
      crossing(2, 1, secondLocked, firstLocked),
    ]);
    expect(attempts).toBe(3);
    expect(await counters()).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it('ends a lock wait with lock_timeout (55P03), a transient error that succeeds once the lock is gone', async () => {
    const impatient = await openPostgresDataSource({
      url: database.url,
      poolSize: 1,
      lockWaitTimeoutS: 1,
    });
    const holder = new Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('UPDATE t_counter SET n = 100 WHERE id = 1');
      const bump = () =>
        runTransaction(impatient, (m) => m.query('UPDATE t_counter SET n = n + 1 WHERE id = 1'), {
          maxAttempts: 2,
          baseDelayMs: 10,
          maxDelayMs: 10,
        });
      const refused = await bump().catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: '55P03' });
      expect(isTransientDbError(refused)).toBe(true);
      await holder.query('ROLLBACK');
      await bump();
      expect((await counters())[0]).toEqual({ id: 1, n: 1 });
    } finally {
      await holder.end();
      await impatient.destroy();
    }
  });

  // The server's kill reaches TypeORM twice: as the driver's error on the query in flight, and
  // as the connection's `error` event, on which TypeORM's query runner releases itself. Which
  // comes first is a race, so each order is driven on purpose.
  it.each([
    ['the next query sent at once, either way round', false],
    ["the connection's error event has released the query runner first", true],
  ])(
    'retries a transaction whose connection the server killed (pg_terminate_backend): %s',
    async (_order, afterRelease) => {
      const errors: unknown[] = [];
      let attempts = 0;
      await runTransaction(dataSource, async (manager) => {
        attempts++;
        await manager.query('UPDATE t_counter SET n = n + 1 WHERE id = 1');
        if (attempts === 1) {
          const [{ pid }] = (await manager.query('SELECT pg_backend_pid() AS pid')) as Array<{
            pid: number;
          }>;
          await admin.query('SELECT pg_terminate_backend($1)', [pid]);
          if (afterRelease) {
            await waitFor(() => manager.queryRunner?.isReleased, {
              description: 'the query runner released on its connection error',
            });
          }
          await manager.query('SELECT 1').catch((error: unknown) => {
            errors.push(error);
            throw error;
          });
        }
      });
      expect(attempts).toBe(2);
      expect(errors).toHaveLength(1);
      expect(isTransientDbError(errors[0])).toBe(true);
      expect((await counters())[0]).toEqual({ id: 1, n: 1 });
    },
  );
});
