/** Why the outbox refused or failed something. */
export type OutboxErrorCode =
  | 'OUTBOX_NO_TRANSACTION'
  | 'OUTBOX_INVALID_OPTIONS'
  | 'OUTBOX_KEY_CONFLICT'
  | 'OUTBOX_VERSION_TAKEN'
  | 'OUTBOX_INVALID_FILTER';

/** A typed outbox error; `code` says which rule was broken. */
export class OutboxError extends Error {
  constructor(
    readonly code: OutboxErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'OutboxError';
  }
}
