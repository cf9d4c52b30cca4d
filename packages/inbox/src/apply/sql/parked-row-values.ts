import type { EventEnvelope } from '@outbox-inbox/messaging';
import type { DeliveryPosition } from '../../inbox.options';

/**
 * A parked event's values for t_inbox_parked, in the order both engines' `park` list its
 * columns (consumer … source_offset; `parked_at` is each engine's own clock): the envelope as
 * the JSON text it is read back from, `already_handled` as 0 or 1.
 */
export function parkedRowValues(
  consumer: string,
  envelope: EventEnvelope,
  alreadyHandled: boolean,
  position: DeliveryPosition,
): unknown[] {
  return [
    consumer,
    envelope.aggregateType,
    envelope.aggregateId,
    envelope.aggregateVersion,
    envelope.eventKey,
    envelope.eventType,
    JSON.stringify(envelope),
    alreadyHandled ? 1 : 0,
    position.topic,
    position.partition,
    position.offset,
  ];
}
