import { EventEnvelope } from '@outbox-inbox/messaging';
import type { EntityManager } from 'typeorm';
import { DeliveryPosition } from '../inbox.options';

/** A message's position and its Kafka headers. */
export interface Delivery extends DeliveryPosition {
  headers: Record<string, string>;
}

/** An event about to take effect, and where it came from. */
export interface Applying {
  envelope: EventEnvelope;
  delivery: Delivery;
}

/**
 * A consumer's handler of one event type, as the apply step sees it. `Tx` is the transaction
 * the effect is written in: the inbox's EntityManager in the module.
 */
export interface InboxHandler<Tx = EntityManager> {
  /** False when order does not matter for this event type (OnEvent versionGate: false). */
  versionGate: boolean;
  handle(tx: Tx, envelope: EventEnvelope, delivery: Delivery): Promise<void>;
  /** Only for `@OnEventBatch` handlers: applies a run of events of this type in one call. */
  handleRun?(tx: Tx, run: Applying[]): Promise<void>;
}

/**
 * Where the apply step finds the handler of an event type (NestHandlers in the module: the
 * handlers Nest registered on the transport).
 */
export interface HandlerLookup<Tx = EntityManager> {
  /** The handler of `eventType`; undefined when this consumer does not handle it. */
  handlerFor(eventType: string): InboxHandler<Tx> | undefined;
}
