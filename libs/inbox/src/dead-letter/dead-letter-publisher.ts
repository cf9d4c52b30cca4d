import { backoffDelay, delay } from '@app/database';
import { IHeaders, KafkaMessage, Producer } from 'kafkajs';
import { InboxError } from '../inbox.errors';
import { DeadLetterReason, deadLetterHeaders } from './dead-letter-headers';

/**
 * Publishes a message that cannot be applied to the dead-letter topic, retrying until the
 * broker takes it: the offset is committed only after, so nothing is dropped. `keepAlive`
 * runs between attempts (a heartbeat) and may throw to abandon the attempt on shutdown.
 */
export class DeadLetterPublisher {
  constructor(
    private readonly producer: Producer,
    private readonly topic: string,
  ) {}

  async publish(
    message: Pick<KafkaMessage, 'key' | 'value' | 'headers'>,
    reason: DeadLetterReason,
    keepAlive: () => Promise<void>,
  ): Promise<void> {
    const headers: IHeaders = deadLetterHeaders(message.headers, reason);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.producer.send({
          topic: this.topic,
          acks: -1,
          messages: [{ key: message.key, value: message.value, headers }],
        });
        return;
      } catch (error) {
        if (error instanceof InboxError && error.code === 'STOPPING') throw error;
        await keepAlive();
        await delay(backoffDelay({ baseDelayMs: 100, maxDelayMs: 5_000 }, attempt));
      }
    }
  }
}
