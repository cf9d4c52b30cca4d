import { randomUUID } from 'node:crypto';
import { EventDefinition } from './event-definition';
import { EventEnvelope, eventKeyOf, TraceContext } from './envelope';
import { EventValidationError, FieldError, validatePlain, ValidateOptions } from './validation';

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
 * EventValidationError. Producers validate strictly (the default); consumers pass
 * `allowUnknownFields` to read as tolerant readers: fields a newer producer added, in the
 * envelope or the payload, are accepted and kept, and the fields declared are still checked.
 */
export function validateEnvelope<P extends object>(
  definition: EventDefinition<P>,
  plain: unknown,
  options: ValidateOptions = {},
): EventEnvelope<P> {
  const { payload } = (plain ?? {}) as { payload?: unknown };
  const errors = envelopeErrors(plain, options);
  errors.push(...validatePlain(definition.payload, payload, 'payload', options).errors);
  const value = (plain ?? {}) as EventEnvelope<P>;
  if (value.eventType !== definition.eventType) {
    errors.push({ path: 'eventType', constraints: { equals: `must be ${definition.eventType}` } });
  }
  if (value.aggregateType !== definition.aggregateType) {
    errors.push({
      path: 'aggregateType',
      constraints: { equals: `must be ${definition.aggregateType}` },
    });
  }
  if (errors.length > 0) throw new EventValidationError(definition.eventType, errors);
  return { ...(plain as EventEnvelope<P>) };
}

/**
 * Validates only the envelope of an event whose payload this reader cannot check (an event
 * type it does not know, or a newer schema version of one): what the version gate and the
 * inbox need. Tolerant of unknown fields; the payload must be an object.
 */
export function validateEnvelopeOnly(plain: unknown): EventEnvelope {
  const errors = envelopeErrors(plain, { allowUnknownFields: true });
  const eventType = (plain as { eventType?: unknown } | null)?.eventType;
  if (errors.length > 0) throw new EventValidationError(String(eventType), errors);
  return { ...(plain as EventEnvelope) };
}

function envelopeErrors(plain: unknown, options: ValidateOptions): FieldError[] {
  const envelope = validatePlain(EventEnvelope, plain, '', options);
  const { trace } = (plain ?? {}) as { trace?: unknown };
  const errors = [
    ...envelope.errors,
    // The envelope's own rules check that a trace, if any, is an object.
    ...(typeof trace === 'object' && trace !== null && !Array.isArray(trace)
      ? validatePlain(TraceContext, trace, 'trace', options).errors
      : []),
  ];
  const value = envelope.value;
  if (
    typeof plain === 'object' &&
    plain !== null &&
    value.eventKey !== eventKeyOf(value.eventType, value.aggregateId, value.aggregateVersion)
  ) {
    errors.push({
      path: 'eventKey',
      constraints: { equals: 'must be eventType:aggregateId:aggregateVersion' },
    });
  }
  return errors;
}
