import { randomUUID } from 'node:crypto';
import { EventDefinition } from './event-definition';
import { EventEnvelope, eventKeyOf, TraceContext } from './envelope';
import { EventValidationError, validatePlain } from './validation';

/** What a producer says about a new event; the rest of the envelope is derived. */
export interface NewEvent<P extends object> {
  aggregateId: string;
  aggregateVersion: number;
  payload: P;
  correlationId?: string;
  causationId?: string;
  trace?: TraceContext;
  /** Defaults to now. */
  occurredAt?: Date;
  /** Defaults to a random UUID. */
  eventId?: string;
}

/**
 * Builds and validates an envelope for `definition`. Throws EventValidationError with the
 * field errors when the envelope or the payload is invalid, so an invalid event never reaches
 * the outbox.
 */
export function createEnvelope<P extends object>(
  definition: EventDefinition<P>,
  event: NewEvent<P>,
): EventEnvelope<P> {
  const plain = {
    eventId: event.eventId ?? randomUUID(),
    eventType: definition.eventType,
    eventKey: eventKeyOf(definition.eventType, event.aggregateId, event.aggregateVersion),
    aggregateType: definition.aggregateType,
    aggregateId: event.aggregateId,
    aggregateVersion: event.aggregateVersion,
    occurredAt: (event.occurredAt ?? new Date()).toISOString(),
    schemaVersion: definition.schemaVersion,
    ...(event.correlationId !== undefined && { correlationId: event.correlationId }),
    ...(event.causationId !== undefined && { causationId: event.causationId }),
    ...(event.trace !== undefined && { trace: { ...event.trace } }),
    payload: { ...event.payload },
  };
  return validateEnvelope(definition, plain) as EventEnvelope<P>;
}

/**
 * Validates a plain envelope (for example one parsed from a Kafka message) against the
 * envelope rules and `definition`'s payload class; returns it typed or throws
 * EventValidationError.
 */
export function validateEnvelope<P extends object>(
  definition: EventDefinition<P>,
  plain: unknown,
): EventEnvelope<P> {
  const envelope = validatePlain(EventEnvelope, plain);
  const { payload, trace } = (plain ?? {}) as { payload?: unknown; trace?: unknown };
  const errors = [
    ...envelope.errors,
    ...validatePlain(definition.payload, payload, 'payload').errors,
    // The envelope's own rules check that a trace, if any, is an object.
    ...(typeof trace === 'object' && trace !== null && !Array.isArray(trace)
      ? validatePlain(TraceContext, trace, 'trace').errors
      : []),
  ];
  const value = envelope.value as EventEnvelope<P>;
  if (value.eventType !== definition.eventType) {
    errors.push({ path: 'eventType', constraints: { equals: `must be ${definition.eventType}` } });
  }
  if (value.aggregateType !== definition.aggregateType) {
    errors.push({
      path: 'aggregateType',
      constraints: { equals: `must be ${definition.aggregateType}` },
    });
  }
  if (value.eventKey !== eventKeyOf(value.eventType, value.aggregateId, value.aggregateVersion)) {
    errors.push({
      path: 'eventKey',
      constraints: { equals: 'must be eventType:aggregateId:aggregateVersion' },
    });
  }
  if (errors.length > 0) throw new EventValidationError(definition.eventType, errors);
  return { ...(plain as EventEnvelope<P>) };
}
