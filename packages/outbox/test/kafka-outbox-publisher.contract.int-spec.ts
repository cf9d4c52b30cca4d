import { startTestEnvironment, TestEnvironment } from '@outbox-inbox/test-kit';
import { Kafka, logLevel } from 'kafkajs';
import { KafkaOutboxPublisher } from '../src';
import {
  OutboxPublisherFeature,
  ReceivedMessage,
  runOutboxPublisherContract,
} from '../src/testing';

let env: TestEnvironment;
beforeAll(async () => {
  env = await startTestEnvironment();
});
afterAll(async () => {
  await env.stop();
});

/** Reads `topic` from its beginning until `count` messages arrived. */
async function received(topic: string, count: number): Promise<ReceivedMessage[]> {
  const kafka = new Kafka({
    brokers: env.infra.kafkaBrokers,
    clientId: 'contract-reader',
    logLevel: logLevel.NOTHING,
  });
  const consumer = kafka.consumer({ groupId: `contract-${topic}`, maxWaitTimeInMs: 100 });
  const messages: ReceivedMessage[] = [];
  let done!: () => void;
  const enough = new Promise<void>((resolve) => (done = resolve));
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(message.headers ?? {})) {
          headers[name] = String(value);
        }
        messages.push({ key: String(message.key), value: String(message.value), headers });
        if (messages.length >= count) done();
      },
    });
    await Promise.race([
      enough,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`${messages.length} of ${count} on ${topic}`)), 30_000),
      ),
    ]);
    return messages;
  } finally {
    await consumer.disconnect();
  }
}

// The broker can be taken away only when it is this test's own kafka-mock.
const features: OutboxPublisherFeature[] = process.env.KAFKA_BROKERS ? [] : ['broker-outage'];

runOutboxPublisherContract(
  'KafkaOutboxPublisher (kafkajs)',
  {
    async start() {
      const topics: [string, string] = [
        await env.createTopic('publisher.contract.a', 3),
        await env.createTopic('publisher.contract.b', 3),
      ];
      const publisher = new KafkaOutboxPublisher(
        {
          brokers: env.infra.kafkaBrokers,
          clientId: 'publisher-contract',
          logLevel: logLevel.NOTHING,
        },
        { requestTimeoutMs: 1_000, producerRetries: 1, topicCacheMs: 0 },
      );
      return { publisher, topics };
    },
    received,
    async outage() {
      const mock = env.infra.kafkaMock!;
      await mock.brokerDown('all');
      return async () => {
        await mock.brokerUp('all');
      };
    },
    stop: ({ publisher }) => publisher.disconnect(),
  },
  features,
);
