import { EventEnvelope } from './envelope';

/** Kafka header names for the envelope fields; trace context uses the W3C names. */
export const EventHeader = {
  eventId: 'event-id',
  eventType: 'event-type',
  eventKey: 'event-key',
  aggregateType: 'aggregate-type',
  aggregateId: 'aggregate-id',
  aggregateVersion: 'aggregate-version',
  schemaVersion: 'schema-version',
  occurredAt: 'occurred-at',
  correlationId: 'correlation-id',
  causationId: 'causation-id',
  traceparent: 'traceparent',
  tracestate: 'tracestate',
} as const;

/**
 * The envelope's fields as Kafka headers (the full envelope is the message value), so that
 * brokers' tools, routers and consumers can see what a message is without parsing it.
 */
export function envelopeHeaders(envelope: EventEnvelope): Record<string, string> {
  const headers: Record<string, string> = {
    [EventHeader.eventId]: envelope.eventId,
    [EventHeader.eventType]: envelope.eventType,
    [EventHeader.eventKey]: envelope.eventKey,
    [EventHeader.aggregateType]: envelope.aggregateType,
    [EventHeader.aggregateId]: envelope.aggregateId,
    [EventHeader.aggregateVersion]: String(envelope.aggregateVersion),
    [EventHeader.schemaVersion]: String(envelope.schemaVersion),
    [EventHeader.occurredAt]: envelope.occurredAt,
  };
  if (envelope.correlationId) headers[EventHeader.correlationId] = envelope.correlationId;
  if (envelope.causationId) headers[EventHeader.causationId] = envelope.causationId;
  if (envelope.trace?.traceparent) headers[EventHeader.traceparent] = envelope.trace.traceparent;
  if (envelope.trace?.tracestate) headers[EventHeader.tracestate] = envelope.trace.tracestate;
  return headers;
}

/** Kafka headers as kafkajs delivers them (Buffer, string or arrays), flattened to strings. */
export function readHeaders(
  headers: Record<string, Buffer | string | (Buffer | string)[] | undefined> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last !== undefined) out[name] = last.toString();
  }
  return out;
}
