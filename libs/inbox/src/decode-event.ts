import { EventEnvelope, EventRegistry, validateEnvelope } from '@app/contracts';
import { InboxError } from './inbox.errors';

/**
 * Parses a Kafka message value into a validated envelope. Throws InboxError NOT_JSON or
 * UNKNOWN_EVENT_TYPE, or EventValidationError: all permanent, the message goes to the DLQ.
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
  if (!definition) {
    throw new InboxError(
      'UNKNOWN_EVENT_TYPE',
      `event type ${String(eventType)}@${String(schemaVersion)} is not in the registry`,
    );
  }
  return validateEnvelope(definition, plain);
}
