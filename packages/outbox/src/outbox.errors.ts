import { CodedError } from '@outbox-inbox/messaging';

/**
 * Every code an OutboxError carries, in one list; the README's error-code table is compared
 * with it by a test (outbox.errors.spec.ts).
 */
export const OUTBOX_ERROR_CODES = [
  'OUTBOX_NO_TRANSACTION',
  'OUTBOX_INVALID_OPTIONS',
  'OUTBOX_KEY_CONFLICT',
  'OUTBOX_VERSION_TAKEN',
  'OUTBOX_INVALID_FILTER',
  'OUTBOX_SEND_INCOMPLETE',
  'OUTBOX_TOPIC_UNAVAILABLE',
  'OUTBOX_START_CHECK_FAILED',
] as const;

/** Why the outbox refused or failed something. */
export type OutboxErrorCode = (typeof OUTBOX_ERROR_CODES)[number];

/** A typed outbox error; `code` says which rule was broken. */
export class OutboxError extends CodedError<OutboxErrorCode> {
  override readonly name = 'OutboxError';
}
