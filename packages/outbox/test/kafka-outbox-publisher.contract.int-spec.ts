import { startTestEnvironment, TestEnvironment, testKafkaConfig } from '@outbox-inbox/test-kit';
import { logLevel } from 'kafkajs';
import { KafkaOutboxPublisher } from '../src';
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
  'KafkaOutboxPublisher (kafkajs)',
  {
    async start() {
      const topics: [string, string] = [
        await env.createTopic('publisher.contract.a', 3),
        await env.createTopic('publisher.contract.b', 3),
      ];
      const publisher = new KafkaOutboxPublisher(
        testKafkaConfig({
          brokers: env.infra.kafkaBrokers,
          clientId: 'publisher-contract',
          logLevel: logLevel.NOTHING,
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
