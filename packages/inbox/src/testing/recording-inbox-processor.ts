import type { EventEnvelope } from '@outbox-inbox/messaging';
import type { EntityManager } from 'typeorm';
import { Delivery } from '../apply/inbox-handler.port';
import { InboxProcessor, ProcessResult } from '../apply/inbox-processor';

/** Where a delivery was made: its topic, partition and offset, as one string. */
export const positionKey = (p: Omit<Delivery, 'headers'>): string =>
  `${p.topic}/${p.partition}@${p.offset}`;

/**
 * The inbox's apply step, unchanged, noting what each delivery came to. A transaction retried
 * whole runs the step again, so the note left is the last attempt's: the one that committed.
 * `Tx` is the transaction it runs in: the EntityManager, or the in-memory twin's.
 */
export class RecordingInboxProcessor<Tx = EntityManager> extends InboxProcessor<Tx> {
  private readonly results = new Map<string, ProcessResult>();

  override async process(
    manager: Tx,
    envelope: EventEnvelope,
    delivery: Delivery,
  ): Promise<ProcessResult> {
    const result = await super.process(manager, envelope, delivery);
    this.results.set(positionKey(delivery), result);
    return result;
  }

  /** What the delivery at `position` came to (and forgets it); undefined if it never committed. */
  take(position: Omit<Delivery, 'headers'>): ProcessResult | undefined {
    const key = positionKey(position);
    const result = this.results.get(key);
    this.results.delete(key);
    return result;
  }
}
