import { setTimeout as pause } from 'node:timers/promises';
import {
  openOutboxDatabase,
  startTestEnvironment,
  TestEnvironment,
  waitFor,
  testKafkaConfig,
} from '@outbox-inbox/test-kit';
import { logLevel } from 'kafkajs';
import { DataSource } from 'typeorm';
import { KafkaOutboxPublisher, createOutboxRelay, OutboxWriter } from '../src';
import { InMemoryOutboxPublisher } from '../src/testing';
import {
  CapturingLogger,
  consumeUntil,
  statusCounts,
  versionsOutOfOrder,
  writeParcelEvents,
} from './outbox-test-kit';

/** One publish call of one relay: which rows, from when to when. */
interface SendRecord {
  relay: string;
  keys: string[];
  startedAt: number;
  endedAt: number;
}

/** Pairs of sends of one row by two relays that were in flight at the same time. */
function overlappingSends(sends: SendRecord[]): string[] {
  const found: string[] = [];
  for (const [i, a] of sends.entries()) {
    for (const b of sends.slice(i + 1)) {
      if (a.relay === b.relay || a.startedAt >= b.endedAt || b.startedAt >= a.endedAt) continue;
      const shared = a.keys.filter((k) => b.keys.includes(k));
      if (shared.length > 0)
        found.push(`${shared[0]} (+${shared.length - 1}) by ${a.relay} and ${b.relay}`);
    }
  }
  return found;
}

/**
 * A broker brownout as one relay lives it: each of its sends takes longer than a whole lease
 * (kafkajs retrying, reconnecting, refreshing metadata), then completes, while another relay
 * runs freely. Simulated at the publisher's
 * boundary in front of the real KafkaOutboxPublisher: against the librdkafka mock, replies
 * delayed past the request timeout left kafkajs answering "Broker not connected" for good.
 */
describe('OutboxRelay in a broker brownout', () => {
  let env: TestEnvironment;
  let dataSource: DataSource;
  const writer = new OutboxWriter();

  beforeAll(async () => {
    env = await startTestEnvironment();
    dataSource = await openOutboxDatabase((await env.createDatabase('outbox_brownout')).url);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await env.stop();
  });

  it('never has two relays sending one row, through a brownout longer than the lease; order per aggregate holds', async () => {
    const topic = await env.createTopic('outbox.brownout', 3);
    const timing = { leaseMs: 2_000, requestTimeoutMs: 500, producerRetries: 2 };
    const sends: SendRecord[] = [];
    /** Until then, each send of relay a (its path to the brokers) takes 1.5 leases. */
    let brownoutUntil = 0;
    const relays = ['a', 'b'].map((name) => {
      const kafka = new KafkaOutboxPublisher(
        testKafkaConfig({
          brokers: env.infra.kafkaBrokers,
          clientId: `brownout-${name}`,
          logLevel: logLevel.NOTHING,
        }),
        { ...timing, topicCacheMs: 60_000 },
      );
      const recording = new InMemoryOutboxPublisher({
        forwardTo: kafka,
        around: async (batches, deliver) => {
          const record: SendRecord = {
            relay: name,
            keys: batches.flatMap((b) => b.messages.map((m) => m.headers['event-key'])),
            startedAt: Date.now(),
            endedAt: Infinity,
          };
          sends.push(record);
          try {
            if (name === 'a' && Date.now() < brownoutUntil) await pause(1.5 * timing.leaseMs);
            await deliver();
          } finally {
            record.endedAt = Date.now();
          }
        },
      });
      return createOutboxRelay({
        ...timing,
        dataSource,
        publisher: recording,
        instanceId: name,
        pollIntervalMs: 20,
        batchSize: 5,
        backoff: { baseDelayMs: 50, maxDelayMs: 300 },
        topicFor: () => topic,
        logger: new CapturingLogger(),
      });
    });
    const keys = await writeParcelEvents(dataSource, writer, 10, 3, 'brown');
    brownoutUntil = Date.now() + 3 * timing.leaseMs;
    for (const relay of relays) relay.start();
    try {
      await waitFor(async () => (await statusCounts(dataSource)).SENT === keys.length, {
        timeoutMs: 60_000,
        description: `all ${keys.length} rows SENT through and after the brownout`,
      });
    } finally {
      await Promise.all(relays.map((r) => r.stop()));
    }
    // Relay a's sends outlived the old lease, and both relays sent.
    const slow = sends.filter((s) => s.endedAt - s.startedAt > timing.leaseMs);
    expect(slow.length).toBeGreaterThan(0);
    expect(new Set(sends.map((s) => s.relay))).toEqual(new Set(['a', 'b']));
    expect(overlappingSends(sends)).toEqual([]);
    const messages = await consumeUntil(
      env.kafka,
      topic,
      (m) => new Set(m.map((x) => x.eventKey)).size >= keys.length,
    );
    expect(new Set(messages.map((m) => m.eventKey))).toEqual(new Set(keys));
    expect(versionsOutOfOrder(messages)).toEqual([]);
  });
});
