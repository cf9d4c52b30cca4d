import { CodedError } from '@outbox-inbox/messaging';

/**
 * Every code an inbox error or a dead letter can carry, in one list; the README's error-code
 * table is compared with it by a test (inbox.errors.spec.ts).
 */
export const INBOX_ERROR_CODES = [
  'INVALID_OPTIONS',
  'INVALID_HANDLERS',
  'NOT_JSON',
  'INVALID_EVENT',
  'UNKNOWN_EVENT_TYPE',
  'NON_RETRYABLE',
  'RETRIES_EXHAUSTED',
  'DEPENDENCY_UNAVAILABLE',
  'DEPLOYMENT_FAULT',
  'DEAD_LETTER_REJECTED',
  'SKIP_REFUSED',
  'TOPIC_MISSING',
  'START_CHECK_FAILED',
  'STOPPING',
] as const;

/** Why an inbox operation failed; `code` is stable for callers and logs. */
export type InboxErrorCode = (typeof INBOX_ERROR_CODES)[number];

/** The codes a dead letter's `inbox-error-code` header can carry, and replay can select by. */
export const DEAD_LETTER_CODES = [
  'NOT_JSON',
  'INVALID_EVENT',
  'UNKNOWN_EVENT_TYPE',
  'NON_RETRYABLE',
  'RETRIES_EXHAUSTED',
] as const satisfies readonly InboxErrorCode[];

/** Why a message was dead-lettered: the `inbox-error-code` header. */
export type DeadLetterCode = (typeof DEAD_LETTER_CODES)[number];

/** A typed inbox error with a `code` and the underlying `cause`. */
export class InboxError extends CodedError<InboxErrorCode> {
  override readonly name = 'InboxError';
}

/**
 * Thrown by a handler when retrying cannot help (a business rule rejects the event): the
 * message goes to the dead-letter topic at once, without further attempts.
 */
export class NonRetryableError extends CodedError<'NON_RETRYABLE'> {
  override readonly name = 'NonRetryableError';

  constructor(message: string, options?: { cause?: unknown }) {
    super('NON_RETRYABLE', message, options);
  }
}
