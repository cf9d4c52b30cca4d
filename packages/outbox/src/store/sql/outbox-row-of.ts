import { EventEnvelope, envelopeHeaders } from '@outbox-inbox/messaging';
import type { NewOutboxRow } from './outbox-sql';

/** The row OutboxWriter inserts for an envelope: its identity, and itself and its headers as JSON. */
export function outboxRowOf(envelope: EventEnvelope): NewOutboxRow {
  return {
    aggregateType: envelope.aggregateType,
    aggregateId: envelope.aggregateId,
    aggregateVersion: envelope.aggregateVersion,
    eventType: envelope.eventType,
    eventKey: envelope.eventKey,
    eventId: envelope.eventId,
    payload: JSON.stringify(envelope),
    headers: JSON.stringify(envelopeHeaders(envelope)),
  };
}
