import { CreateOperatorAuditTable } from '@outbox-inbox/database';
import { openPostgresDataSource } from '@outbox-inbox/database/postgres';
import {
  createPostgresTestDatabase,
  parcelRegistered,
  ParcelRegisteredV1,
  TestDatabase,
} from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { OutboxMigrations, OutboxOperations, OutboxWriter } from '../src';
import { OutboxClaimer } from '../src/relay/outbox-claimer';
import { OutboxFinalizer } from '../src/relay/outbox-finalizer';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * The operators' reads and requeue on PostgreSQL (the store contract covers claims, outcomes
 * and retention): stats, DEAD listing, an aggregate's rows, requeue with its audit record.
 */
describe('OutboxOperations on PostgreSQL', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let operations: OutboxOperations;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    database = await createPostgresTestDatabase('outbox_operations');
    dataSource = await openPostgresDataSource({
      url: database.url,
      migrations: [...OutboxMigrations, CreateOperatorAuditTable],
      poolSize: 4,
    });
    await dataSource.runMigrations({ transaction: 'each' });
    operations = new OutboxOperations(dataSource, 'block');

    // d1 and d2 die, r1 fails once and waits a minute, s1 is sent; then d1's version 2
    // arrives behind its DEAD version 1.
    const writer = new OutboxWriter();
    const add = (aggregateId: string, aggregateVersion: number) =>
      dataSource.transaction((m) =>
        writer.add(m, ParcelRegisteredV1, {
          aggregateId,
          aggregateVersion,
          payload: parcelRegistered(aggregateId),
        }),
      );
    for (const id of ['d1', 'd2', 'r1', 's1']) await add(id, 1);
    const claim = (await new OutboxClaimer(
      dataSource,
      {
        batchSize: 10,
        maxBatchBytes: 900_000,
        leaseMs: 30_000,
        deadPolicy: 'block',
        blockedRecheckMs: 20,
        deadBlockedRecheckMs: 0,
      },
      'ops-test',
    ).claim())!;
    for (const row of claim.rows) ids[row.aggregateId] = row.id;
    const outcomes = new OutboxFinalizer(dataSource, {
      maxAttempts: 3,
      backoff: { baseDelayMs: 60_000, maxDelayMs: 60_000 },
    });
    await outcomes.markDead([ids.d1, ids.d2], claim.token, 'poison');
    await outcomes.markFailed(
      claim.rows.filter((r) => r.aggregateId === 'r1'),
      claim.token,
      'broker down',
    );
    await outcomes.markSent([ids.s1], claim.token);
    await add('d1', 2);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('counts the backlog, the retrying rows and the aggregates a DEAD row blocks', async () => {
    const stats = await operations.stats();
    expect(stats).toMatchObject({
      backlog: { NEW: 2, SENDING: 0, DEAD: 2 },
      dead: 2,
      retryingRows: 1,
      aggregatesBlockedByDead: 1,
      deadPolicy: 'block',
    });
    expect(stats.oldestUnsentAgeMs).toBeGreaterThanOrEqual(0);
    expect(stats.oldestUnsentAgeMs).toBeLessThan(60_000);
  });

  it('lists DEAD rows by id, page after page, with a preview of their envelope', async () => {
    const [first] = await operations.listDead(1);
    expect(first).toMatchObject({
      id: ids.d1,
      eventKey: 'ParcelRegistered:d1:1',
      aggregateVersion: 1,
      retryCount: 0,
      lastError: 'poison',
      createdAt: expect.stringMatching(ISO),
    });
    const [{ payload }] = (await dataSource.query('SELECT payload FROM t_outbox WHERE id = $1', [
      first.id,
    ])) as Array<{ payload: string }>;
    expect(payload.length).toBeGreaterThan(300);
    expect(first.payloadPreview).toBe(payload.slice(0, 300));
    expect((await operations.listDead(10, first.id)).map((d) => d.eventKey)).toEqual([
      'ParcelRegistered:d2:1',
    ]);
  });

  it('lists only the DEAD rows a requeue with the same filter would take', async () => {
    const keys = async (match: Parameters<OutboxOperations['listDead']>[2]) =>
      (await operations.listDead(10, '0', match)).map((d) => d.eventKey);
    expect(await keys({ aggregateType: 'Parcel', aggregateId: 'd2' })).toEqual([
      'ParcelRegistered:d2:1',
    ]);
    expect(await keys({ eventType: 'ParcelRegistered' })).toEqual([
      'ParcelRegistered:d1:1',
      'ParcelRegistered:d2:1',
    ]);
    expect(await keys({ aggregateId: 'no-such-parcel' })).toEqual([]);
  });

  it("shows an aggregate's rows by version", async () => {
    expect(await operations.rowsOfAggregate('Parcel', 'd1')).toEqual([
      expect.objectContaining({ aggregateVersion: 1, status: 'DEAD', sentAt: null }),
      expect.objectContaining({
        aggregateVersion: 2,
        status: 'NEW',
        nextRetryAt: expect.stringMatching(ISO),
      }),
    ]);
    expect(await operations.rowsOfAggregate('Parcel', 's1')).toEqual([
      expect.objectContaining({ status: 'SENT', sentAt: expect.stringMatching(ISO) }),
    ]);
  });

  it('requeues DEAD rows by filter, records who asked and why, and refuses no filter', async () => {
    await expect(operations.requeueDead({})).rejects.toMatchObject({
      code: 'OUTBOX_INVALID_FILTER',
    });
    expect(
      await operations.requeueDead({ aggregateId: 'd1' }, { who: 'night-ops', reason: 'fixed' }),
    ).toBe(1);
    expect(await operations.requeueDead({ ids: [ids.d2] })).toBe(1);
    expect((await operations.stats()).backlog).toEqual({ NEW: 4, SENDING: 0, DEAD: 0 });
    expect(await operations.auditLog()).toEqual([
      expect.objectContaining({
        action: 'outbox.requeue',
        target: { aggregateId: 'd1' },
        count: 1,
        who: 'night-ops',
        reason: 'fixed',
        at: expect.stringMatching(ISO),
      }),
    ]);
  });
});
