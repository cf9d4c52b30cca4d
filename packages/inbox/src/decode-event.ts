import {
  EventEnvelope,
  EventRegistry,
  validateEnvelope,
  validateEnvelopeOnly,
} from '@outbox-inbox/messaging';
import { InboxError } from './inbox.errors';

/**
 * Parses a Kafka message value into a validated envelope, as a tolerant reader: fields this
 * process does not know, in the envelope or the payload, are accepted and kept; the fields it
 * knows are validated.
 *
 * - A registered event type and version: envelope and payload validated.
 * - An event type the registry does not know at all, or a newer schema version of a known
 *   one: only the envelope is validated (the gate needs it); the inbox records the event and
 *   skips it, or holds it when this consumer handles the type (see `holdNewerSchema`).
 * - Throws InboxError NOT_JSON, InboxError UNKNOWN_EVENT_TYPE (an older schema version no
 *   longer registered) or EventValidationError: all permanent, the message goes to the DLQ.
 */
export function decodeEvent(value: Buffer | string | null, registry: EventRegistry): EventEnvelope {
  let plain: unknown;
  try {
    plain = JSON.parse(value === null ? '' : value.toString());
  } catch (error) {
    throw new InboxError('NOT_JSON', 'message value is not JSON', { cause: error });
  }
  const { eventType, schemaVersion } = (plain ?? {}) as {
    eventType?: unknown;
    schemaVersion?: unknown;
  };
  const definition =
    typeof eventType === 'string' && typeof schemaVersion === 'number'
      ? registry.find(eventType, schemaVersion)
      : undefined;
  if (definition) return validateEnvelope(definition, plain, { allowUnknownFields: true });
  const latest = typeof eventType === 'string' ? registry.latest(eventType) : undefined;
  if (!latest || (typeof schemaVersion === 'number' && schemaVersion > latest.schemaVersion)) {
    return validateEnvelopeOnly(plain);
  }
  throw new InboxError(
    'UNKNOWN_EVENT_TYPE',
    `event type ${String(eventType)}@${String(schemaVersion)} is not in the registry`,
  );
}

/** True when `envelope` is of a schema version newer than any `registry` knows of its type. */
export function isNewerSchema(envelope: EventEnvelope, registry: EventRegistry): boolean {
  const latest = registry.latest(envelope.eventType);
  return latest !== undefined && envelope.schemaVersion > latest.schemaVersion;
}

/** True when the registry knows nothing of the event's type. */
export function isUnknownType(envelope: EventEnvelope, registry: EventRegistry): boolean {
  return registry.latest(envelope.eventType) === undefined;
}
