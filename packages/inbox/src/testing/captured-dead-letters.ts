import { readHeaders } from '@outbox-inbox/messaging';
import { KafkaMessage } from 'kafkajs';
import { DeadLetterPublisher } from '../dead-letter/dead-letter-publisher';
import { DeadLetterReason } from '../dead-letter/dead-letter-headers';

/** A message the inbox dead-lettered under InboxTestHarness, and why. */
export interface CapturedDeadLetter {
  key: string | null;
  /** The message value as it was delivered, unchanged. */
  value: string;
  /** The headers it was delivered with. */
  headers: Record<string, string>;
  /** Why and where it failed: what the dead letter's inbox-* headers would say. */
  reason: DeadLetterReason;
}

/**
 * The dead-letter topic of InboxTestHarness: the runner hands it every message that cannot be
 * applied, as it hands them to the DeadLetterPublisher in production, and it keeps them in order.
 */
export class CapturedDeadLetters implements Pick<DeadLetterPublisher, 'publish'> {
  readonly messages: CapturedDeadLetter[] = [];

  async publish(
    message: Pick<KafkaMessage, 'key' | 'value' | 'headers'>,
    reason: DeadLetterReason,
  ): Promise<void> {
    this.messages.push({
      key: message.key === null ? null : message.key.toString(),
      value: message.value === null ? '' : message.value.toString(),
      headers: readHeaders(message.headers),
      reason,
    });
  }
}
