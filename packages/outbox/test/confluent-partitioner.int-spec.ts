import {
  startTestEnvironment,
  TestEnvironment,
  waitFor,
  testKafkaConfig,
} from '@outbox-inbox/test-kit';
import { Kafka, logLevel } from 'kafkajs';
import { KafkaOutboxPublisher } from '../src';
import { ConfluentOutboxPublisher } from '../src/confluent';
import { OutboxPublisher } from '../src/publisher/outbox-publisher';

const KEYS = Array.from({ length: 500 }, (_, i) => `aggregate-${i * 7919}`);
const PARTITIONS = 12;

let env: TestEnvironment;
beforeAll(async () => {
  env = await startTestEnvironment();
});
afterAll(async () => {
  await env.stop();
});

/**
 * An aggregate's events must stay on one partition when a service moves from kafkajs to
 * librdkafka (KAFKA_CLIENT), or a consumer could see a later version before an earlier one:
 * each key lands on the same partition under both publishers.
 */
describe('The librdkafka publisher partitions as the kafkajs one does', () => {
  it(`puts each of ${KEYS.length} keys on the partition kafkajs puts it on`, async () => {
    const topic = await env.createTopic('publisher.partitioner', PARTITIONS);
    const tuning = { requestTimeoutMs: 5_000, producerRetries: 2, topicCacheMs: 0 };
    const kafka = testKafkaConfig({ brokers: env.infra.kafkaBrokers, clientId: 'partitioner' });
    const publishers: Array<[string, OutboxPublisher]> = [
      ['kafkajs', new KafkaOutboxPublisher({ ...kafka, logLevel: logLevel.NOTHING }, tuning)],
      ['confluent', new ConfluentOutboxPublisher({ ...kafka, logLevel: 0 }, tuning)],
    ];
    try {
      for (const [client, publisher] of publishers) {
        const messages = KEYS.map((key) => ({ key, value: client, headers: {} }));
        await publisher.publish([{ topic, messages }]);
      }
    } finally {
      await Promise.all(publishers.map(([, publisher]) => publisher.disconnect()));
    }

    const placed = await partitionsOf(topic, KEYS.length * publishers.length);
    const partitionOf = (client: string) =>
      Object.fromEntries(KEYS.map((key) => [key, placed.get(`${client}:${key}`)]));
    expect(partitionOf('confluent')).toEqual(partitionOf('kafkajs'));
    // The keys spread over the partitions: a client that put every key on one would not count.
    expect(new Set(Object.values(partitionOf('kafkajs'))).size).toBe(PARTITIONS);
  });
});

/** `client:key` → partition, for each of `count` messages on `topic`. */
async function partitionsOf(topic: string, count: number): Promise<Map<string, number>> {
  const kafka = new Kafka(
    testKafkaConfig({
      brokers: env.infra.kafkaBrokers,
      clientId: 'partitioner-reader',
      logLevel: logLevel.NOTHING,
    }),
  );
  const consumer = kafka.consumer({ groupId: `partitioner-${topic}`, maxWaitTimeInMs: 100 });
  const placed = new Map<string, number>();
  let read = 0;
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        placed.set(`${String(message.value)}:${String(message.key)}`, partition);
        read += 1;
      },
    });
    await waitFor(() => read >= count, { description: `${count} messages on ${topic}` });
  } finally {
    await consumer.disconnect();
  }
  return placed;
}
