import { EventHeader, eventKeyOf } from '@outbox-inbox/messaging';

/** The envelope fields that say which event a message is, by the header each is copied to. */
const IDENTITY_FIELDS = [
  ['eventType', EventHeader.eventType],
  ['eventKey', EventHeader.eventKey],
  ['aggregateType', EventHeader.aggregateType],
  ['aggregateId', EventHeader.aggregateId],
  ['aggregateVersion', EventHeader.aggregateVersion],
] as const;

/**
 * Which event a message is, as the consumers read it: from its envelope (the message value),
 * which is what the inbox keys on, and from its headers only for what the value does not say.
 * This project's relay copies the envelope's fields into headers, but a producer outside it
 * (another language's client, Debezium's outbox router, a console producer) may send a valid
 * envelope with no headers at all; the consumers take such a message by its envelope, and so
 * must the checker. The result is keyed by header name, like the headers themselves.
 */
export function eventIdentity(
  value: Buffer | null,
  headers: Record<string, string>,
): Record<string, string> {
  const envelope = parseObject(value);
  // An envelope whose key is not its type, aggregate and version is one the consumers refuse
  // and dead-letter (found by its position): it says nothing about which event it is.
  if (!envelope || !selfConsistent(envelope)) return headers;
  const identity = { ...headers };
  for (const [field, header] of IDENTITY_FIELDS) {
    const v = envelope[field];
    if (typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v)))
      identity[header] = String(v);
  }
  return identity;
}

function selfConsistent(envelope: Record<string, unknown>): boolean {
  const { eventType, aggregateId, aggregateVersion, eventKey } = envelope;
  return (
    typeof eventType === 'string' &&
    typeof aggregateId === 'string' &&
    typeof aggregateVersion === 'number' &&
    eventKey === eventKeyOf(eventType, aggregateId, aggregateVersion)
  );
}

function parseObject(value: Buffer | null): Record<string, unknown> | undefined {
  if (!value || value.length === 0) return undefined;
  try {
    const parsed: unknown = JSON.parse(value.toString());
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // not JSON: the consumers dead-letter it, found by its position
  }
}
