import type { CommonEnv } from '@app/config';
import type { OutboxPublisherFactory } from '@outbox-inbox/outbox';

type ConfluentEntry = typeof import('@outbox-inbox/outbox/confluent');

/**
 * The relay's publisher that KAFKA_CLIENT names: undefined for `kafkajs` (OutboxModule's
 * default, KafkaOutboxPublisher), or librdkafka's for `confluent`. That entry point is loaded
 * only then, so a service on kafkajs never loads the native addon.
 */
export function outboxPublisherFromEnv(
  env: Pick<CommonEnv, 'KAFKA_CLIENT'>,
): OutboxPublisherFactory | undefined {
  if (env.KAFKA_CLIENT !== 'confluent') return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when chosen
  const entry = require('@outbox-inbox/outbox/confluent') as ConfluentEntry;
  return entry.confluentOutboxPublisher;
}
