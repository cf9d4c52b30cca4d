import { affectedRows, isDuplicateKeyError, Statement } from '@outbox-inbox/database';
import {
  createPostgresTestDatabase,
  openOutboxDatabase,
  parcelRegistered,
  ParcelRegisteredV1,
  ParcelReturnedV1,
  TestDatabase,
} from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { OutboxError, OutboxWriter } from '../src';

// A failed statement aborts a PostgreSQL transaction (25P02): whatever the writer meets (a
// known event, a taken version) must leave the caller's transaction able to go on and commit.
describe('OutboxWriter on PostgreSQL', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const writer = new OutboxWriter();

  beforeAll(async () => {
    database = await createPostgresTestDatabase('outbox_writer');
    dataSource = await openOutboxDatabase(database.url, 4);
    await dataSource.query(
      'CREATE TABLE t_parcel_state (id VARCHAR(32) PRIMARY KEY, version INT NOT NULL)',
    );
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const keysOf = async (aggregateId: string) =>
    (
      (await dataSource.query(
        'SELECT event_key FROM t_outbox WHERE aggregate_id = $1 ORDER BY aggregate_version',
        [aggregateId],
      )) as Array<{ event_key: string }>
    ).map((r) => r.event_key);
  const registered = (aggregateId: string, aggregateVersion: number) => ({
    aggregateId,
    aggregateVersion,
    payload: parcelRegistered(aggregateId),
  });

  it('stores the envelope byte for byte, as the message value it will be', async () => {
    const envelope = await dataSource.transaction((m) =>
      writer.add(m, ParcelRegisteredV1, { ...registered('p1', 1), correlationId: 'corr-1' }),
    );
    const [row] = (await dataSource.query(
      'SELECT id, status, retry_count, payload, headers FROM t_outbox WHERE aggregate_id = $1',
      ['p1'],
    )) as Array<{
      id: string;
      status: string;
      retry_count: number;
      payload: string;
      headers: string;
    }>;
    expect(row).toMatchObject({ status: 'NEW', retry_count: 0 });
    expect(typeof row.id).toBe('string');
    expect(row.payload).toBe(JSON.stringify(envelope));
    expect(JSON.parse(row.headers)).toMatchObject({
      'event-key': 'ParcelRegistered:p1:1',
      'correlation-id': 'corr-1',
    });
  });

  it('treats a re-added event as a no-op, and the transaction commits its other writes', async () => {
    const first = await dataSource.transaction((m) =>
      writer.add(m, ParcelRegisteredV1, registered('p2', 1)),
    );
    const again = await dataSource.transaction(async (m) => {
      const envelope = await writer.add(m, ParcelRegisteredV1, registered('p2', 1));
      await writer.add(m, ParcelRegisteredV1, registered('p2', 2));
      return envelope;
    });
    expect(again.eventId).toBe(first.eventId);
    expect(await keysOf('p2')).toEqual(['ParcelRegistered:p2:1', 'ParcelRegistered:p2:2']);
  });

  it('refuses a taken version, and the caller may still commit what else it wrote', async () => {
    await dataSource.transaction((m) => writer.add(m, ParcelRegisteredV1, registered('p3', 1)));
    const refused = await dataSource.transaction(async (m) => {
      const error = await writer
        .add(m, ParcelReturnedV1, {
          aggregateId: 'p3',
          aggregateVersion: 1,
          payload: { parcelId: 'p3', reason: 'x', returnedAt: new Date().toISOString() },
        })
        .catch((e: unknown) => e);
      await writer.add(m, ParcelRegisteredV1, registered('p4', 1));
      return error;
    });
    expect(refused).toBeInstanceOf(OutboxError);
    expect(refused).toMatchObject({ code: 'OUTBOX_VERSION_TAKEN' });
    expect(await keysOf('p3')).toEqual(['ParcelRegistered:p3:1']);
    expect(await keysOf('p4')).toEqual(['ParcelRegistered:p4:1']);
    // The table holds the rule too, whatever writes to it.
    const raw = await dataSource
      .query(
        `INSERT INTO t_outbox (aggregate_type, aggregate_id, aggregate_version, event_type,
           event_key, event_id, payload, headers, next_retry_at, created_at, updated_at)
         VALUES ('Parcel', 'p3', 1, 'ParcelShipped', 'ParcelShipped:p3:1', gen_random_uuid(),
           '{}', '{}', now(), now(), now())`,
      )
      .catch((e: unknown) => e);
    expect(isDuplicateKeyError(raw)).toBe(true);
  });

  it("runs the caller's statements before the event, and a lost compare-and-set takes the event back", async () => {
    await dataSource.query("INSERT INTO t_parcel_state (id, version) VALUES ('p5', 1)");
    const advance = (from: number): Statement<void> => ({
      sql: 'UPDATE t_parcel_state SET version = $1 WHERE id = $2 AND version = $3',
      params: [from + 1, 'p5', from],
      read: (result) => {
        if (affectedRows(result) !== 1) throw new Error(`p5 is not at version ${from}`);
      },
    });
    await dataSource.transaction((m) =>
      writer.add(m, ParcelRegisteredV1, registered('p5', 2), [advance(1)]),
    );
    await expect(
      dataSource.transaction((m) =>
        writer.add(m, ParcelRegisteredV1, registered('p5', 3), [advance(1)]),
      ),
    ).rejects.toThrow('p5 is not at version 1');
    expect(await keysOf('p5')).toEqual(['ParcelRegistered:p5:2']);
    expect(await dataSource.query("SELECT version FROM t_parcel_state WHERE id = 'p5'")).toEqual([
      { version: 2 },
    ]);
  });
});
