import { EventValidationError } from '@app/contracts';
import { InboxError, NonRetryableError } from './inbox.errors';

/** What the consumer does with a failed attempt. */
export type FailureKind = 'permanent' | 'retry';

const PERMANENT_CODES = new Set(['NOT_JSON', 'INVALID_EVENT', 'UNKNOWN_EVENT_TYPE']);

/**
 * Permanent: the message itself is bad (not JSON, invalid, unknown type) or the handler said
 * so (NonRetryableError). Everything else is retried, bounded: deadlocks and lost connections
 * obviously, and unknown errors too, because dead-lettering an event after one hiccup of a
 * dependency would push routine failures onto an operator.
 */
export function classifyFailure(error: unknown): FailureKind {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    if (e instanceof NonRetryableError || e instanceof EventValidationError) return 'permanent';
    if (e instanceof InboxError && PERMANENT_CODES.has(e.code)) return 'permanent';
    e = (e as { cause?: unknown }).cause;
  }
  return 'retry';
}

/** A short code naming a failure, for the dead-letter headers. */
export function failureCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.length > 0) return code;
  if (typeof code === 'number') return String(code);
  return (error as Error | null)?.name ?? 'Error';
}
