import {
  KAFKA_STARTUP_MS,
  startTestEnvironment,
  TestEnvironment,
  waitFor,
} from '@outbox-inbox/test-kit';
import { Kafka, Partitioners } from 'kafkajs';

async function committedTotal(kafka: Kafka, groupId: string, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchOffsets({ groupId, topics: [topic] });
    return offsets[0].partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
  } finally {
    await admin.disconnect();
  }
}

async function highWatermarkTotal(kafka: Kafka, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets.reduce((sum, p) => sum + Number(p.high), 0);
  } finally {
    await admin.disconnect();
  }
}

describe('Kafka harness', () => {
  let env: TestEnvironment;

  beforeAll(async () => {
    env = await startTestEnvironment();
  });

  afterAll(async () => {
    await env.stop();
  });

  it('round-trips keyed messages from an idempotent producer to a group that commits offsets by hand', async () => {
    const topic = await env.createTopic('harness.roundtrip', 3);
    const groupId = `g-${topic}`;
    const producer = env.kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      idempotent: true,
      maxInFlightRequests: 1,
    });
    const consumer = env.kafka.consumer({ groupId });
    try {
      await producer.connect();
      const sent = Array.from({ length: 30 }, (_, i) => ({ key: `k${i % 5}`, value: `v${i}` }));
      await producer.send({ topic, acks: -1, messages: sent });

      const received: Array<{ key: string; value: string; partition: number }> = [];
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachMessage: async ({ message, partition }) => {
          received.push({ key: String(message.key), value: String(message.value), partition });
          await consumer.commitOffsets([
            { topic, partition, offset: (BigInt(message.offset) + 1n).toString() },
          ]);
        },
      });
      await waitFor(() => received.length >= sent.length, { description: '30 messages consumed' });

      expect(received.map((m) => m.value).sort()).toEqual(sent.map((m) => m.value).sort());
      // One key, one partition: what per-aggregate ordering rests on.
      for (const key of new Set(sent.map((m) => m.key))) {
        expect(new Set(received.filter((m) => m.key === key).map((m) => m.partition)).size).toBe(1);
      }
      await waitFor(async () => (await committedTotal(env.kafka, groupId, topic)) === sent.length, {
        description: 'offsets of all 30 messages committed',
      });
    } finally {
      await consumer.disconnect();
      await producer.disconnect();
    }
  });
});

describe('Kafka harness, every broker down', () => {
  // A Kafka of this file's own, since its brokers go down: the mock, or one Apache Kafka node
  // behind a TCP proxy (the path of every client, cut and healed).
  let env: TestEnvironment;

  beforeAll(async () => {
    env = await startTestEnvironment({ kafkaFaults: true });
  }, KAFKA_STARTUP_MS);

  afterAll(async () => {
    await env?.stop();
  });

  it('fails a send while every broker is down, and delivers again once they are back', async () => {
    const faults = env.infra.kafka.faults!;
    const topic = await env.createTopic('harness.faults', 1);
    const producer = env.kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      idempotent: true,
      maxInFlightRequests: 1,
      retry: { retries: 1, initialRetryTime: 50, maxRetryTime: 200 },
    });
    try {
      await producer.connect();
      await producer.send({ topic, acks: -1, messages: [{ key: 'a', value: 'before' }] });

      await faults.allDown();
      await expect(
        producer.send({
          topic,
          acks: -1,
          timeout: 1_000,
          messages: [{ key: 'a', value: 'during' }],
        }),
      ).rejects.toThrow();
      await faults.allUp();

      await waitFor(
        async () => {
          await producer.send({ topic, acks: -1, messages: [{ key: 'a', value: 'after' }] });
          return true;
        },
        { description: 'a send succeeds after the brokers return' },
      );
      // "before" and "after" are in the log; "during" failed, so at most it is there too.
      expect(await highWatermarkTotal(env.kafka, topic)).toBeGreaterThanOrEqual(2);
    } finally {
      await producer.disconnect();
    }
  });
});
