/** Why an inbox operation failed; `code` is stable for callers and logs. */
export type InboxErrorCode =
  | 'INVALID_OPTIONS'
  | 'INVALID_HANDLERS'
  | 'NOT_JSON'
  | 'INVALID_EVENT'
  | 'UNKNOWN_EVENT_TYPE'
  | 'NON_RETRYABLE'
  | 'RETRIES_EXHAUSTED'
  | 'DEPENDENCY_UNAVAILABLE'
  | 'DEAD_LETTER_REJECTED'
  | 'SKIP_REFUSED'
  | 'TOPIC_MISSING'
  | 'STOPPING';

/** A typed inbox error with a `code` and the underlying `cause`. */
export class InboxError extends Error {
  constructor(
    readonly code: InboxErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'InboxError';
  }
}

/**
 * Thrown by a handler when retrying cannot help (a business rule rejects the event): the
 * message goes to the dead-letter topic at once, without further attempts.
 */
export class NonRetryableError extends Error {
  readonly code = 'NON_RETRYABLE' as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NonRetryableError';
  }
}
