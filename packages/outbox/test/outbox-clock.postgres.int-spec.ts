import {
  createPostgresTestDatabase,
  openOutboxDatabase,
  TestDatabase,
} from '@outbox-inbox/test-kit';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { OutboxWriter } from '../src';
import { postgresOutboxSql } from '../src/store/sql/postgres-outbox-sql';
import { OutboxQuery } from '../src/testing';
import { writeParcelEvents } from './outbox-test-kit';

const LEASE_MS = 60_000;
const DELAY_MS = 30_000;

/**
 * On PostgreSQL, now() is the transaction's start: a lease or a retry time written from it
 * would be short by however long the transaction had already run (a slow statement, a lock
 * wait). The outbox's times come from statement_timestamp(), the clock when the statement
 * runs. Each statement here runs in a transaction aged first, and its time must count from
 * after the ageing.
 */
describe('the outbox clock on PostgreSQL', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let id: string;

  beforeAll(async () => {
    database = await createPostgresTestDatabase('outbox_clock');
    dataSource = await openOutboxDatabase(database.url, 2);
    await writeParcelEvents(dataSource, new OutboxWriter(), 1, 1, 'clock');
    const [row] = (await dataSource.query('SELECT id FROM t_outbox')) as Array<{ id: string }>;
    id = String(row.id);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  /**
   * Runs `statement` in a transaction that has run for a while already, and answers how far
   * the row's next_retry_at lies past the clock read just before the statement, in ms.
   */
  async function aheadOfClock(statement: OutboxQuery): Promise<number> {
    return dataSource.transaction(async (manager: EntityManager) => {
      await manager.query('SELECT pg_sleep(0.5)');
      const [{ before }] = (await manager.query('SELECT clock_timestamp() AS before')) as Array<{
        before: Date;
      }>;
      await manager.query(statement.sql, statement.params);
      const [{ due }] = (await manager.query(
        'SELECT next_retry_at AS due FROM t_outbox WHERE id = $1',
        [id],
      )) as Array<{ due: Date }>;
      return due.getTime() - before.getTime();
    });
  }

  it('leases for leaseMs from the statement, however old its transaction', async () => {
    const token = randomUUID();
    const lease = postgresOutboxSql.lease([id], { owner: 'clock', token, leaseMs: LEASE_MS });
    expect(await aheadOfClock(lease)).toBeGreaterThanOrEqual(LEASE_MS);
    expect(
      await aheadOfClock(postgresOutboxSql.extendLease([id], token, LEASE_MS)),
    ).toBeGreaterThanOrEqual(LEASE_MS);
  });

  it('sets a retry delayMs after the statement, however old its transaction', async () => {
    const token = randomUUID();
    const { sql, params } = postgresOutboxSql.lease([id], { owner: 'clock', token, leaseMs: 1 });
    await dataSource.query(sql, params);
    const retry = postgresOutboxSql.markRetry([id], token, 'broker down', DELAY_MS);
    expect(await aheadOfClock(retry)).toBeGreaterThanOrEqual(DELAY_MS);
    expect(await aheadOfClock(postgresOutboxSql.backToNew([id], DELAY_MS))).toBeGreaterThanOrEqual(
      DELAY_MS,
    );
  });
});
