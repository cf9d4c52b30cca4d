import { openPostgresDataSource } from '@outbox-inbox/database/postgres';
import { EventEnvelope } from '@outbox-inbox/messaging';
import {
  createPostgresTestDatabase,
  parcelEvent,
  parcelEventRegistry,
  TestDatabase,
  waitFor,
} from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { InboxMigrations, InboxOperations, resolveInboxOptions } from '../src';
import { SqlInboxStore } from '../src/apply/sql-inbox-store';
import { postgresInboxApplySql } from '../src/apply/sql/postgres-inbox-apply-sql';
import { createInbox } from '../src/create-inbox';
import { ReplayRecords } from '../src/operations/replay-records';

/**
 * The inbox's operator statements on PostgreSQL: open gaps, a gap skipped on purpose, the
 * deliveries of an aggregate, pruning in chunks behind a watermark, and dead-letter replay
 * records. The rows are written by SqlInboxStore, as the apply step writes them.
 */
describe('inbox operations on PostgreSQL', () => {
  const consumer = 'ops-c';
  const store = new SqlInboxStore(consumer, postgresInboxApplySql);
  const position = { topic: 'parcels', partition: 0, offset: '0' };
  let database: TestDatabase;
  let dataSource: DataSource;
  let operations: InboxOperations;

  beforeAll(async () => {
    database = await createPostgresTestDatabase('inbox_operations');
    dataSource = await openPostgresDataSource({ url: database.url, migrations: InboxMigrations });
    await dataSource.runMigrations({ transaction: 'each' });
    const options = resolveInboxOptions({
      consumer,
      topics: ['parcels'],
      // Never connected: the operations below only read and write the database.
      kafka: { clientId: consumer, brokers: ['127.0.0.1:1'] },
      registry: parcelEventRegistry(),
      gapAlertMs: 1,
      pruneChunkSize: 2,
    });
    ({ operations } = createInbox({ options, dataSource }));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  /** Takes an event in as the apply step does: parked behind a gap when it is not the next. */
  const takeIn = (event: EventEnvelope) =>
    dataSource.transaction(async (tx) => {
      if ((await store.admit(tx, event, 'applied')) === 'advanced') return;
      const { aggregateType, aggregateId } = event;
      const gate = (await store.lockVersion(tx, aggregateType, aggregateId))!;
      await store.setOutcome(tx, event.eventKey, 'parked');
      await store.park(tx, event, false, position);
      await store.saveVersion(
        tx,
        aggregateType,
        aggregateId,
        { ...gate, parkedCount: gate.parkedCount + 1 },
        false,
      );
    });
  const rows = (sql: string) => dataSource.query(sql) as Promise<Array<Record<string, unknown>>>;

  it('shows a gap, refuses to skip anything but the missing version, and skips it', async () => {
    await takeIn(parcelEvent('registered', 'gap-1', 1));
    await takeIn(parcelEvent('shipped', 'gap-1', 3));
    await takeIn(parcelEvent('returned', 'gap-1', 4));
    await waitFor(async () => (await operations.openGaps()).length === 1, {
      description: 'the parked versions older than the gap alert time',
    });
    expect(await operations.openGaps()).toEqual([
      expect.objectContaining({
        aggregateId: 'gap-1',
        lastAppliedVersion: 1,
        parkedVersions: [3, 4],
      }),
    ]);

    const skip = { aggregateType: 'Parcel', aggregateId: 'gap-1', reason: 'lost upstream' };
    await expect(operations.skipVersion({ ...skip, version: 3 })).rejects.toMatchObject({
      code: 'SKIP_REFUSED',
    });
    // The handlers are not attached in this process: the housekeeping drains later.
    expect(await operations.skipVersion({ ...skip, version: 2, skippedBy: 'ana' })).toEqual({
      aggregateType: 'Parcel',
      aggregateId: 'gap-1',
      skippedVersion: 2,
      drained: 0,
      lastVersion: 2,
    });

    expect(
      await rows(`SELECT aggregate_id, last_version, parked_count FROM t_inbox_version`),
    ).toEqual([{ aggregate_id: 'gap-1', last_version: 2, parked_count: 2 }]);
    expect(
      await rows(`SELECT aggregate_version, reason, skipped_by, drained FROM t_inbox_skip`),
    ).toEqual([{ aggregate_version: 2, reason: 'lost upstream', skipped_by: 'ana', drained: 0 }]);
    expect(await operations.auditLog()).toEqual([
      expect.objectContaining({ action: 'inbox.gap-skip', count: 1, who: 'ana' }),
    ]);
    expect(await dataSource.transaction((tx) => store.readyAggregates(tx, 10))).toEqual([
      { aggregateType: 'Parcel', aggregateId: 'gap-1' },
    ]);
    const deliveries = await operations.deliveriesOf([
      { aggregateType: 'Parcel', aggregateId: 'gap-1' },
    ]);
    expect(deliveries.map((d) => [d.eventKey, d.outcome])).toEqual([
      ['ParcelRegistered:gap-1:1', 'applied'],
      ['ParcelShipped:gap-1:3', 'parked'],
      ['ParcelReturned:gap-1:4', 'parked'],
      ['Parcel:gap-1:2', 'skipped'],
    ]);
  });

  it('prunes the rows past the dedup window in chunks, parked ones kept, behind a watermark', async () => {
    for (let v = 1; v <= 5; v += 1) await takeIn(parcelEvent('registered', `old-${v}`, 1));
    expect(await operations.prune()).toBe(0); // everything is inside the week-long window

    const later = new Date(Date.now() + 8 * 24 * 3_600_000);
    // gap-1's v1 and the five above, two per statement; gap-1's parked v3 and v4 stay.
    expect(await operations.prune(later)).toBe(6);
    expect(await rows(`SELECT event_key FROM t_inbox ORDER BY id`)).toEqual([
      { event_key: 'ParcelShipped:gap-1:3' },
      { event_key: 'ParcelReturned:gap-1:4' },
    ]);
    const [watermark] = await rows(
      `SELECT consumer, pruned_before, pruned_through_id FROM t_inbox_prune`,
    );
    expect(watermark.consumer).toBe(consumer);
    expect(new Date(watermark.pruned_before as Date).getTime()).toBeGreaterThan(Date.now());

    // A prune as of an earlier time never moves the watermark back.
    await takeIn(parcelEvent('registered', 'new-1', 1));
    expect(await operations.prune(new Date(later.getTime() - 1_000))).toBe(1);
    const [after] = await rows(`SELECT pruned_before, pruned_through_id FROM t_inbox_prune`);
    expect(after.pruned_before).toEqual(watermark.pruned_before);
    expect(Number(after.pruned_through_id)).toBeGreaterThan(Number(watermark.pruned_through_id));
  });

  it('records each dead letter replayed once, renewed by a second replay', async () => {
    const records = new ReplayRecords(dataSource, consumer, 'parcels.dlq');
    await records.record({ partition: 0, offset: '7' }, 'parcels');
    await records.record({ partition: 0, offset: '7' }, 'parcels.retry');
    await records.record({ partition: 1, offset: '7' }, 'parcels');
    expect([...(await records.times()).keys()].sort()).toEqual(['0:7', '1:7']);
    expect(
      await rows(`SELECT dlq_partition, dlq_offset, target_topic FROM t_inbox_dlq_replay
                  ORDER BY dlq_partition`),
    ).toEqual([
      { dlq_partition: 0, dlq_offset: '7', target_topic: 'parcels.retry' },
      { dlq_partition: 1, dlq_offset: '7', target_topic: 'parcels' },
    ]);
  });
});
