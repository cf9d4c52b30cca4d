import { backoffDelay, delay } from '@outbox-inbox/database';
import { IHeaders, Kafka, KafkaMessage, Partitioners, Producer } from 'kafkajs';
import { InboxError } from '../inbox.errors';
import { DeadLetterReason, deadLetterHeaders } from './dead-letter-headers';

/** Broker answers that no retry can turn into a success until a person changes something. */
const NON_RETRIABLE_TYPES = new Set([
  'UNKNOWN_TOPIC_OR_PARTITION', // the topic was deleted (auto-creation is off)
  'TOPIC_AUTHORIZATION_FAILED',
  'CLUSTER_AUTHORIZATION_FAILED',
  'MESSAGE_TOO_LARGE',
  'RECORD_LIST_TOO_LARGE',
  'INVALID_TOPIC_EXCEPTION',
  'INVALID_RECORD',
  'POLICY_VIOLATION',
]);

/** In-place attempts at a retriable failure before the partition is paused instead. */
const IN_PLACE_ATTEMPTS = 8;

/**
 * Publishes a message that cannot be applied to the dead-letter topic. The offset is
 * committed only after the broker took it, so nothing is dropped. A retriable failure (broker
 * unreachable, leader moving) is retried in place a few times with backoff, `keepAlive`
 * (a heartbeat, which may throw to abandon on shutdown) between attempts; then, and at once
 * for a non-retriable answer (topic deleted, not authorized, message too large), it throws
 * InboxError DEPENDENCY_UNAVAILABLE or DEAD_LETTER_REJECTED: the transport pauses the
 * partition and tries the message again after a backoff, for as long as it takes.
 *
 * The transport connects a new producer each time it starts its consumer, and disconnects it
 * when it closes.
 */
export class DeadLetterPublisher {
  private producer?: Producer;

  constructor(
    private readonly kafka: Kafka,
    private readonly topic: string,
  ) {}

  /** Connects a new producer; a failed connect disconnects it again before rejecting. */
  async connect(): Promise<void> {
    const producer = this.kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      allowAutoTopicCreation: false,
    });
    this.producer = producer;
    try {
      await producer.connect();
    } catch (error) {
      await producer.disconnect().catch(() => undefined);
      throw error;
    }
  }

  /** Disconnects the producer; publishing fails (and is retried) until the next connect. */
  async disconnect(): Promise<void> {
    const producer = this.producer;
    this.producer = undefined;
    await producer?.disconnect();
  }

  async publish(
    message: Pick<KafkaMessage, 'key' | 'value' | 'headers'>,
    reason: DeadLetterReason,
    keepAlive: () => Promise<void>,
  ): Promise<void> {
    const headers: IHeaders = deadLetterHeaders(message.headers, reason);
    for (let attempt = 1; ; attempt++) {
      try {
        if (!this.producer) throw new Error(`the producer of ${this.topic} is disconnected`);
        await this.producer.send({
          topic: this.topic,
          acks: -1,
          messages: [{ key: message.key, value: message.value, headers }],
        });
        return;
      } catch (error) {
        if (error instanceof InboxError && error.code === 'STOPPING') throw error;
        const cause = nonRetriableCause(error);
        if (cause) {
          throw new InboxError(
            'DEAD_LETTER_REJECTED',
            `the broker refused the dead letter for ${this.topic} (${cause}); fix the topic or its permissions`,
            { cause: error },
          );
        }
        if (attempt >= IN_PLACE_ATTEMPTS) {
          throw new InboxError(
            'DEPENDENCY_UNAVAILABLE',
            `publishing to ${this.topic} failed ${attempt} times: ${(error as Error)?.message ?? String(error)}`,
            { cause: error },
          );
        }
        await keepAlive();
        await delay(backoffDelay({ baseDelayMs: 100, maxDelayMs: 5_000 }, attempt));
      }
    }
  }
}

/** The broker error type when `error` (or a cause of it) is one no retry can fix. */
export function nonRetriableCause(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const candidate = e as {
      type?: unknown;
      retriable?: unknown;
      name?: unknown;
      cause?: unknown;
      originalError?: unknown;
    };
    if (typeof candidate.type === 'string' && NON_RETRIABLE_TYPES.has(candidate.type)) {
      return candidate.type;
    }
    if (
      candidate.name === 'KafkaJSProtocolError' &&
      candidate.retriable === false &&
      typeof candidate.type === 'string'
    ) {
      return candidate.type;
    }
    e = candidate.cause ?? candidate.originalError;
  }
  return undefined;
}
