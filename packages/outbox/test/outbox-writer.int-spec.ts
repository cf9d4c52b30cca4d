import { EventValidationError } from '@outbox-inbox/messaging';
import { affectedRows, runTransaction, Statement } from '@outbox-inbox/database';
import {
  openOutboxDatabase,
  parcelRegistered,
  ParcelRegisteredV1,
  ParcelReturnedV1,
  startTestEnvironment,
  TestEnvironment,
} from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { OutboxCommitNotifier, OutboxError, OutboxWriter } from '../src';

describe('OutboxWriter', () => {
  let env: TestEnvironment;
  let dataSource: DataSource;
  const writer = new OutboxWriter();

  beforeAll(async () => {
    env = await startTestEnvironment();
    dataSource = await openOutboxDatabase((await env.createDatabase('outbox_writer')).url);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await env.stop();
  });

  const rowsFor = async (aggregateId: string) =>
    (await dataSource.query(
      'SELECT id, event_key, status, payload, headers FROM t_outbox WHERE aggregate_id = ?',
      [aggregateId],
    )) as Array<{
      id: string;
      event_key: string;
      status: string;
      payload: string;
      headers: string;
    }>;

  it('writes one NEW row with the envelope and its headers, keyed eventType:aggregateId:version', async () => {
    const envelope = await dataSource.transaction((m) =>
      writer.add(m, ParcelRegisteredV1, {
        aggregateId: 'w1',
        aggregateVersion: 1,
        payload: parcelRegistered('w1'),
        correlationId: 'corr-1',
      }),
    );
    const rows = await rowsFor('w1');
    expect(rows).toHaveLength(1);
    expect(rows[0].event_key).toBe('ParcelRegistered:w1:1');
    expect(rows[0].status).toBe('NEW');
    expect(typeof rows[0].id).toBe('string');
    expect(JSON.parse(rows[0].payload)).toEqual(envelope);
    expect(JSON.parse(rows[0].headers)).toMatchObject({
      'event-key': 'ParcelRegistered:w1:1',
      'correlation-id': 'corr-1',
    });
  });

  it('keeps one row when a retried transaction adds the same event again', async () => {
    let attempts = 0;
    await runTransaction(dataSource, async (manager) => {
      attempts += 1;
      await writer.add(manager, ParcelRegisteredV1, {
        aggregateId: 'w2',
        aggregateVersion: 1,
        payload: parcelRegistered('w2'),
      });
      if (attempts === 1) {
        throw Object.assign(new Error('Deadlock found when trying to get lock'), { errno: 1213 });
      }
    });
    expect(attempts).toBe(2);
    expect(await rowsFor('w2')).toHaveLength(1);
  });

  it('treats a re-added event as a no-op that lets the caller commit its other writes', async () => {
    const first = await dataSource.transaction((m) =>
      writer.add(m, ParcelRegisteredV1, {
        aggregateId: 'w3',
        aggregateVersion: 1,
        payload: parcelRegistered('w3'),
      }),
    );
    const again = await dataSource.transaction(async (m) => {
      const envelope = await writer.add(m, ParcelRegisteredV1, {
        aggregateId: 'w3',
        aggregateVersion: 1,
        payload: parcelRegistered('w3'),
      });
      await writer.add(m, ParcelRegisteredV1, {
        aggregateId: 'w3',
        aggregateVersion: 2,
        payload: parcelRegistered('w3'),
      });
      return envelope;
    });
    expect(again.eventId).toBe(first.eventId);
    expect((await rowsFor('w3')).map((r) => r.event_key).sort()).toEqual([
      'ParcelRegistered:w3:1',
      'ParcelRegistered:w3:2',
    ]);
  });

  it('refuses a second event at a version of the aggregate another event holds', async () => {
    await dataSource.transaction((m) =>
      writer.add(m, ParcelRegisteredV1, {
        aggregateId: 'w9',
        aggregateVersion: 1,
        payload: parcelRegistered('w9'),
      }),
    );
    const second = dataSource.transaction((m) =>
      writer.add(m, ParcelReturnedV1, {
        aggregateId: 'w9',
        aggregateVersion: 1,
        payload: {
          parcelId: 'w9',
          reason: 'x',
          returnedAt: new Date().toISOString(),
        },
      }),
    );
    await expect(second).rejects.toBeInstanceOf(OutboxError);
    await expect(second).rejects.toMatchObject({ code: 'OUTBOX_VERSION_TAKEN' });
    expect((await rowsFor('w9')).map((r) => r.event_key)).toEqual(['ParcelRegistered:w9:1']);
    // The table holds the rule too, whatever writes to it.
    await expect(
      dataSource.query(
        `INSERT INTO t_outbox (aggregate_type, aggregate_id, aggregate_version, event_type,
           event_key, event_id, payload, headers, next_retry_at, created_at, updated_at)
         VALUES ('Parcel', 'w9', 1, 'ParcelShipped', 'ParcelShipped:w9:1', UUID(), '{}', '{}',
           NOW(3), NOW(3), NOW(3))`,
      ),
    ).rejects.toMatchObject({ code: 'ER_DUP_ENTRY' });
  });

  it('refuses to write outside a transaction', async () => {
    await expect(
      writer.add(dataSource.manager, ParcelRegisteredV1, {
        aggregateId: 'w4',
        aggregateVersion: 1,
        payload: parcelRegistered('w4'),
      }),
    ).rejects.toMatchObject({ code: 'OUTBOX_NO_TRANSACTION' });
    await expect(
      writer.add(dataSource.manager, ParcelRegisteredV1, {
        aggregateId: 'w4',
        aggregateVersion: 1,
        payload: parcelRegistered('w4'),
      }),
    ).rejects.toBeInstanceOf(OutboxError);
    expect(await rowsFor('w4')).toHaveLength(0);
  });

  it('rejects an invalid payload with its field errors and writes nothing', async () => {
    const attempt = dataSource.transaction((m) =>
      writer.add(m, ParcelRegisteredV1, {
        aggregateId: 'w5',
        aggregateVersion: 1,
        payload: { ...parcelRegistered('w5'), declaredValue: -3, currency: 'euros' },
      }),
    );
    await expect(attempt).rejects.toBeInstanceOf(EventValidationError);
    await expect(attempt).rejects.toMatchObject({
      fieldErrors: expect.arrayContaining([
        expect.objectContaining({ path: 'payload.declaredValue' }),
        expect.objectContaining({ path: 'payload.currency' }),
      ]),
    });
    expect(await rowsFor('w5')).toHaveLength(0);
  });

  it('wakes listeners after the outermost commit only, and not after a rollback', async () => {
    const notifier = new OutboxCommitNotifier();
    dataSource.subscribers.push(notifier);
    const notifying = new OutboxWriter(notifier);
    let wakes = 0;
    notifier.onCommit(() => (wakes += 1));
    try {
      await expect(
        dataSource.transaction(async (m) => {
          await notifying.add(m, ParcelRegisteredV1, {
            aggregateId: 'w6',
            aggregateVersion: 1,
            payload: parcelRegistered('w6'),
          });
          throw new Error('business rule failed');
        }),
      ).rejects.toThrow('business rule failed');
      expect(wakes).toBe(0);
      await dataSource.transaction((m) =>
        notifying.add(m, ParcelRegisteredV1, {
          aggregateId: 'w6',
          aggregateVersion: 1,
          payload: parcelRegistered('w6'),
        }),
      );
      expect(wakes).toBe(1);
      await dataSource.transaction((m) => m.query('SELECT 1'));
      expect(wakes).toBe(1);
    } finally {
      dataSource.subscribers.splice(dataSource.subscribers.indexOf(notifier), 1);
    }
  });
  it("sends the caller's statements with the event in one round trip, and a lost compare-and-set takes the event back", async () => {
    await dataSource.query(
      'CREATE TABLE IF NOT EXISTS t_parcel_state (id VARCHAR(32) PRIMARY KEY, version INT NOT NULL)',
    );
    await dataSource.query("INSERT INTO t_parcel_state (id, version) VALUES ('wa1', 1)");
    const advance = (from: number): Statement<void> => ({
      sql: 'UPDATE t_parcel_state SET version = ? WHERE id = ? AND version = ?',
      params: [from + 1, 'wa1', from],
      read: (result) => {
        if (affectedRows(result) !== 1) throw new Error(`wa1 is not at version ${from}`);
      },
    });
    const event = (version: number) => ({
      aggregateId: 'wa1',
      aggregateVersion: version,
      payload: parcelRegistered('wa1'),
    });

    let queries = 0;
    await dataSource.transaction(async (manager) => {
      const query = manager.query.bind(manager);
      manager.query = (sql: string, params?: unknown[]) => {
        queries += 1;
        return query(sql, params);
      };
      await writer.add(manager, ParcelRegisteredV1, event(2), [advance(1)]);
    });
    expect(queries).toBe(1);
    expect((await rowsFor('wa1')).map((r) => r.event_key)).toEqual(['ParcelRegistered:wa1:2']);

    // The row is at version 2 now: the compare-and-set from 1 loses, and so does the event.
    await expect(
      dataSource.transaction((m) => writer.add(m, ParcelRegisteredV1, event(3), [advance(1)])),
    ).rejects.toThrow('wa1 is not at version 1');
    expect((await rowsFor('wa1')).map((r) => r.event_key)).toEqual(['ParcelRegistered:wa1:2']);
    expect(await dataSource.query("SELECT version FROM t_parcel_state WHERE id = 'wa1'")).toEqual([
      { version: 2 },
    ]);
  });
});
