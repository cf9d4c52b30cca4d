import { defineEvent } from '@outbox-inbox/messaging';
import {
  openOutboxDatabase,
  parcelRegistered,
  ParcelRegisteredV1,
  startTestEnvironment,
  TestEnvironment,
  waitFor,
  testKafkaConfig,
} from '@outbox-inbox/test-kit';
import { IsString, MaxLength } from 'class-validator';
import { logLevel } from 'kafkajs';
import { DataSource } from 'typeorm';
import { createOutboxRelay, OutboxOperations, OutboxWriter } from '../src';
import {
  CapturingLogger,
  consumeUntil,
  FAST_RELAY,
  rowsOf,
  statusCounts,
  writeParcelEvents,
} from './outbox-test-kit';

class NotePayload {
  @IsString() @MaxLength(100_000) text!: string;
}
/** Has no topic until the test maps one (a missing topic only waits: outbox-relay-missing-topic). */
const GhostNoted = defineEvent({
  eventType: 'GhostNoted',
  aggregateType: 'Ghost',
  schemaVersion: 1,
  payload: NotePayload,
});
/** Goes to the parcels' topic, but can be made larger than the relay's message limit. */
const BlobNoted = defineEvent({
  eventType: 'BlobNoted',
  aggregateType: 'Blob',
  schemaVersion: 1,
  payload: NotePayload,
});

describe('Poison rows, requeue and retention', () => {
  let env: TestEnvironment;
  let dataSource: DataSource;
  const writer = new OutboxWriter();

  beforeAll(async () => {
    env = await startTestEnvironment();
    dataSource = await openOutboxDatabase((await env.createDatabase('outbox_poison')).url);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await env.stop();
  });

  it('makes unpublishable rows DEAD with the reason, holds their later versions, publishes the rest, and requeues', async () => {
    const parcels = await env.createTopic('outbox.poison.parcels', 3);
    const ghosts = await env.createTopic('outbox.poison.ghosts', 1);
    let ghostsMapped = false;
    const topicFor = (aggregateType: string) => {
      if (aggregateType !== 'Ghost') return parcels;
      if (!ghostsMapped) throw new Error('Ghost is not mapped yet');
      return ghosts;
    };
    await dataSource.transaction(async (m) => {
      for (const version of [1, 2]) {
        await writer.add(m, GhostNoted, {
          aggregateId: 'g1',
          aggregateVersion: version,
          payload: { text: 'boo' },
        });
        const text = version === 1 ? 'x'.repeat(20_000) : 'small';
        await writer.add(m, BlobNoted, {
          aggregateId: 'b1',
          aggregateVersion: version,
          payload: { text },
        });
      }
    });
    const parcelKeys = await writeParcelEvents(dataSource, writer, 20, 2, 'ok');
    const relay = createOutboxRelay({
      ...FAST_RELAY,
      dataSource,
      kafka: testKafkaConfig({
        brokers: env.infra.kafkaBrokers,
        clientId: 'outbox-poison',
        logLevel: logLevel.NOTHING,
      }),
      topicFor,
      maxMessageBytes: 10_000,
      batchSize: 500, // one claim holds poison and good rows together
      logger: new CapturingLogger(),
    });
    const operations = new OutboxOperations(dataSource, 'block', () => relay.counts());
    relay.start();
    try {
      await waitFor(async () => (await statusCounts(dataSource)).SENT === 40, {
        description: 'the 40 parcel events SENT',
      });
      expect(await rowsOf(dataSource, ['g1', 'b1'])).toEqual([
        expect.objectContaining({
          event_key: 'BlobNoted:b1:1',
          status: 'DEAD',
          last_error: expect.stringMatching(/over the 10000-byte limit/),
        }),
        expect.objectContaining({ event_key: 'BlobNoted:b1:2', status: 'NEW' }),
        expect.objectContaining({
          event_key: 'GhostNoted:g1:1',
          status: 'DEAD',
          last_error: 'no topic for aggregate type Ghost: Ghost is not mapped yet',
        }),
        expect.objectContaining({ event_key: 'GhostNoted:g1:2', status: 'NEW' }),
      ]);
      expect(await operations.stats()).toMatchObject({
        backlog: { NEW: 2, SENDING: 0, DEAD: 2 },
        dead: 2,
        aggregatesBlockedByDead: 2,
        relay: { dead: 2 },
      });
      expect((await operations.listDead()).map((d) => d.eventKey).sort()).toEqual([
        'BlobNoted:b1:1',
        'GhostNoted:g1:1',
      ]);
      // Listed with a filter: the rows a requeue with the same filter takes, and only those.
      const matching = async (match: Parameters<typeof operations.listDead>[2]) =>
        (await operations.listDead(100, '0', match)).map((d) => d.eventKey);
      expect(await matching({ aggregateType: 'Ghost' })).toEqual(['GhostNoted:g1:1']);
      expect(await matching({ eventType: 'BlobNoted', aggregateId: 'b1' })).toEqual([
        'BlobNoted:b1:1',
      ]);
      expect(await matching({ eventType: 'BlobNoted', aggregateId: 'g1' })).toEqual([]);

      ghostsMapped = true;
      expect(await operations.requeueDead({ aggregateType: 'Ghost' })).toBe(1);
      await waitFor(async () => (await statusCounts(dataSource)).SENT === 42, {
        description: 'the requeued ghost event and the one held behind it SENT',
      });
      await expect(operations.requeueDead({})).rejects.toMatchObject({
        code: 'OUTBOX_INVALID_FILTER',
      });
    } finally {
      await relay.stop();
    }
    const ghostMessages = await consumeUntil(env.kafka, ghosts, (m) => m.length >= 2);
    expect(ghostMessages.map((m) => m.eventKey)).toEqual(['GhostNoted:g1:1', 'GhostNoted:g1:2']);
    const parcelMessages = await consumeUntil(env.kafka, parcels, (m) => m.length >= 40);
    expect(new Set(parcelMessages.map((m) => m.eventKey))).toEqual(new Set(parcelKeys));
    expect(await rowsOf(dataSource, ['b1'])).toEqual([
      expect.objectContaining({ status: 'DEAD' }),
      expect.objectContaining({ status: 'NEW' }),
    ]);
  });

  it('deletes SENT rows older than the retention age in chunks, and nothing else', async () => {
    await dataSource.query('DELETE FROM t_outbox');
    await dataSource.transaction(async (m) => {
      for (let i = 0; i < 25; i++) {
        await writer.add(m, ParcelRegisteredV1, {
          aggregateId: `r${i}`,
          aggregateVersion: 1,
          payload: parcelRegistered(`r${i}`),
        });
      }
    });
    // 17 old SENT rows, 3 recent SENT rows, 3 old DEAD and 2 old NEW rows. A SENT row's
    // next_retry_at is its send time, as the relay's markSent writes it.
    await dataSource.query(
      `UPDATE t_outbox SET status = 'SENT', sent_at = UTC_TIMESTAMP(3),
         next_retry_at = UTC_TIMESTAMP(3)
       WHERE id <= (SELECT MIN(id) + 19 FROM (SELECT id FROM t_outbox) t)`,
    );
    await dataSource.query(
      `UPDATE t_outbox SET status = 'DEAD' WHERE status = 'NEW' ORDER BY id LIMIT 3`,
    );
    await dataSource.query(
      `UPDATE t_outbox SET updated_at = updated_at - INTERVAL 8 DAY,
         next_retry_at = next_retry_at - INTERVAL 8 DAY, sent_at = sent_at - INTERVAL 8 DAY
       WHERE status <> 'SENT' OR id <= (SELECT MIN(id) + 16 FROM (SELECT id FROM t_outbox) t)`,
    );
    // A recent SENT row sent long after it was due, as rows sent before the single status
    // index kept their due time in next_retry_at: its send time keeps it.
    await dataSource.query(
      `UPDATE t_outbox SET next_retry_at = next_retry_at - INTERVAL 9 DAY
       WHERE id = (SELECT MIN(id) + 19 FROM (SELECT id FROM t_outbox) t)`,
    );
    const operations = new OutboxOperations(dataSource, 'block');

    expect(await operations.pruneSent({ olderThanMs: 7 * 86_400_000, chunkSize: 5 })).toBe(17);
    expect(await statusCounts(dataSource)).toEqual({ SENT: 3, DEAD: 3, NEW: 2 });
    expect(await operations.pruneSent({ olderThanMs: 7 * 86_400_000, chunkSize: 5 })).toBe(0);
  });
});
