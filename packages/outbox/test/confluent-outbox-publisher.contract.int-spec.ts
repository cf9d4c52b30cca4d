import { startTestEnvironment, TestEnvironment, testKafkaConfig } from '@outbox-inbox/test-kit';
import { ConfluentOutboxPublisher } from '../src/confluent';
import { OutboxPublisherFeature, runOutboxPublisherContract } from '../src/testing';
import { contractTopicReader } from './contract-topic-reader';

let env: TestEnvironment;
beforeAll(async () => {
  env = await startTestEnvironment();
});
afterAll(async () => {
  await env.stop();
});

// The broker can be taken away only when it is this test's own kafka-mock.
const features: OutboxPublisherFeature[] = process.env.KAFKA_BROKERS ? [] : ['broker-outage'];

runOutboxPublisherContract(
  'ConfluentOutboxPublisher (librdkafka)',
  {
    async start() {
      const topics: [string, string] = [
        await env.createTopic('publisher.confluent.a', 3),
        await env.createTopic('publisher.confluent.b', 3),
      ];
      const publisher = new ConfluentOutboxPublisher(
        testKafkaConfig({
          brokers: env.infra.kafkaBrokers,
          clientId: 'publisher-contract',
          logLevel: 0,
        }),
        { requestTimeoutMs: 1_000, producerRetries: 1, topicCacheMs: 0 },
      );
      return { publisher, topics };
    },
    received: (topic, count) => contractTopicReader(env.infra.kafkaBrokers)(topic, count),
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
