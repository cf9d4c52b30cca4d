import { IHeaders } from 'kafkajs';
import { DeadLetterCode } from '../inbox.errors';

/** Headers the inbox adds to a dead-lettered message; replay removes them again. */
export const DeadLetterHeader = {
  error: 'inbox-error',
  errorCode: 'inbox-error-code',
  attempts: 'inbox-attempts',
  consumer: 'inbox-consumer',
  sourceTopic: 'inbox-source-topic',
  sourcePartition: 'inbox-source-partition',
  sourceOffset: 'inbox-source-offset',
  failedAt: 'inbox-failed-at',
  replayOf: 'inbox-replay-of',
} as const;

const INBOX_HEADER_PREFIX = 'inbox-';

/** Why and where a message failed. */
export interface DeadLetterReason {
  error: string;
  errorCode: DeadLetterCode;
  attempts: number;
  consumer: string;
  topic: string;
  partition: number;
  offset: string;
  failedAt: Date;
}

/**
 * The original headers plus the failure's. Earlier inbox-* headers (from a replayed message
 * that failed again) are replaced, so a message never carries two stories.
 */
export function deadLetterHeaders(
  original: IHeaders | undefined,
  reason: DeadLetterReason,
): IHeaders {
  return {
    ...withoutInboxHeaders(original),
    [DeadLetterHeader.error]: reason.error.slice(0, 2_000),
    [DeadLetterHeader.errorCode]: reason.errorCode,
    [DeadLetterHeader.attempts]: String(reason.attempts),
    [DeadLetterHeader.consumer]: reason.consumer,
    [DeadLetterHeader.sourceTopic]: reason.topic,
    [DeadLetterHeader.sourcePartition]: String(reason.partition),
    [DeadLetterHeader.sourceOffset]: reason.offset,
    [DeadLetterHeader.failedAt]: reason.failedAt.toISOString(),
  };
}

/** The headers a message had before the inbox touched it. */
export function withoutInboxHeaders(headers: IHeaders | undefined): IHeaders {
  const out: IHeaders = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!name.startsWith(INBOX_HEADER_PREFIX) && value !== undefined) out[name] = value;
  }
  return out;
}
