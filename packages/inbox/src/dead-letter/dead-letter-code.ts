import { EventValidationError } from '@outbox-inbox/messaging';
import { DeadLetterCode, InboxError, NonRetryableError } from '../inbox.errors';

const OWN_CODES: ReadonlySet<string> = new Set<DeadLetterCode>([
  'NOT_JSON',
  'INVALID_EVENT',
  'UNKNOWN_EVENT_TYPE',
  'RETRIES_EXHAUSTED',
]);

/**
 * The `inbox-error-code` of a dead letter: the message could not be read, its handler refused
 * it, or its retries ran out. Always one of DEAD_LETTER_CODES (never a driver's code), so an
 * operator can select dead letters by the codes the README lists. The `cause` chain is
 * followed as classifyFailure follows it.
 */
export function deadLetterCode(error: unknown): DeadLetterCode {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    if (e instanceof NonRetryableError) return 'NON_RETRYABLE';
    if (e instanceof EventValidationError) return 'INVALID_EVENT';
    if (e instanceof InboxError && OWN_CODES.has(e.code)) return e.code as DeadLetterCode;
    e = (e as { cause?: unknown }).cause;
  }
  return 'RETRIES_EXHAUSTED';
}
