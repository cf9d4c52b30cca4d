import { KafkaOutboxPublisher } from '@outbox-inbox/outbox';
import { ConfluentOutboxPublisher } from '@outbox-inbox/outbox/confluent';
import { outboxPublisherFromEnv } from './outbox-publisher-from-env';

describe('outboxPublisherFromEnv: the relay publisher KAFKA_CLIENT names', () => {
  const kafka = { brokers: ['127.0.0.1:1'], clientId: 'order-service' };
  const tuning = { requestTimeoutMs: 1_000, producerRetries: 1, topicCacheMs: 0 };

  it("leaves kafkajs's publisher, OutboxModule's default, in place for KAFKA_CLIENT=kafkajs", () => {
    expect(outboxPublisherFromEnv({ KAFKA_CLIENT: 'kafkajs' })).toBeUndefined();
  });

  it('builds the librdkafka publisher for KAFKA_CLIENT=confluent', async () => {
    const publisher = outboxPublisherFromEnv({ KAFKA_CLIENT: 'confluent' })!(kafka, tuning);
    try {
      expect(publisher).toBeInstanceOf(ConfluentOutboxPublisher);
      expect(publisher).not.toBeInstanceOf(KafkaOutboxPublisher);
    } finally {
      await publisher.disconnect();
    }
  });
});
