import type { KafkaConnection } from '@outbox-inbox/messaging';
import { OutboxPublisher } from './outbox-publisher';

/** The relay options a publisher is built with: one send's bounds, and how long a topic listing holds. */
export interface OutboxPublisherTuning {
  requestTimeoutMs: number;
  producerRetries: number;
  topicCacheMs: number;
}

/**
 * Builds the relay's publisher from its Kafka settings: KafkaOutboxPublisher (kafkajs) by
 * default, or another client's, such as confluentOutboxPublisher from
 * `@outbox-inbox/outbox/confluent` (librdkafka).
 */
export type OutboxPublisherFactory = (
  kafka: KafkaConnection,
  tuning: OutboxPublisherTuning,
) => OutboxPublisher;
