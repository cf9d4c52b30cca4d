import { EventValidationError } from '@outbox-inbox/messaging';
import { isDeploymentFault, isTransientDbError } from '@outbox-inbox/database';
import { InboxError, NonRetryableError } from './inbox.errors';

/**
 * What the consumer does with a failed attempt:
 * - `permanent`: the message itself is bad, or the handler said so: dead-letter it now;
 * - `transient`: a dependency is down (database gone, read-only during a failover, broker
 *   unavailable, a timeout): the message is good, so the partition is paused and the message
 *   retried with capped backoff for as long as it takes; it never dead-letters;
 * - `deployment`: the deployment is half done (a table, column or grant the migrations or the
 *   operator still owe): the message is good and no retry in place heals it, so the partition
 *   is paused at once and retried with capped backoff until it is fixed; it never dead-letters;
 * - `retry`: not known either way (a bug, an unexpected answer): retried a bounded number of
 *   times (`retry.maxAttempts`), then dead-lettered, as NServiceBus's recoverability does.
 */
export type FailureKind = 'permanent' | 'transient' | 'deployment' | 'retry';

/** Decides what a failed attempt means; `InboxModuleOptions.classifyFailure` replaces it. */
export type FailureClassifier = (error: unknown) => FailureKind;

const PERMANENT_CODES = new Set(['NOT_JSON', 'INVALID_EVENT', 'UNKNOWN_EVENT_TYPE']);

/** kafkajs errors that mean "the broker could not be reached or did not answer in time". */
const KAFKA_TRANSIENT_NAMES = new Set([
  'KafkaJSConnectionError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSBrokerNotFound',
  'KafkaJSConnectionClosedError',
  'KafkaJSLockTimeout',
  'KafkaJSStaleTopicMetadataAssignment',
]);

/**
 * The default classifier. Permanent: not JSON, invalid, an unknown event type, or a handler's
 * NonRetryableError (looked for along the `cause` chain). Deployment: a missing table, column
 * or grant (`isDeploymentFault`: MySQL 1146, 1054, 1142, 1143; PostgreSQL 42P01, 42703,
 * 42501), in the inbox's tables or the handler's own. Transient: what
 * `isTransientDbError` knows (lost, refused or reset connection, server gone, too many
 * connections, read-only server, 1205/1213 left after `runTransaction`'s own retries,
 * timeouts) and kafkajs errors marked retriable or naming an unreachable broker. Anything
 * else: `retry`.
 */
export function classifyFailure(error: unknown): FailureKind {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    if (e instanceof NonRetryableError || e instanceof EventValidationError) return 'permanent';
    if (e instanceof InboxError && PERMANENT_CODES.has(e.code)) return 'permanent';
    e = (e as { cause?: unknown }).cause;
  }
  if (isDeploymentFault(error)) return 'deployment';
  if (isTransientDbError(error) || isTransientKafkaError(error)) return 'transient';
  return 'retry';
}

function isTransientKafkaError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const candidate = e as { name?: unknown; retriable?: unknown; cause?: unknown };
    if (typeof candidate.name === 'string' && candidate.name.startsWith('KafkaJS')) {
      if (candidate.retriable === true || KAFKA_TRANSIENT_NAMES.has(candidate.name)) return true;
    }
    e = candidate.cause;
  }
  return false;
}

/** A short code naming a failure, for the dead-letter headers and logs. */
export function failureCode(error: unknown): string {
  // kafkajs protocol errors carry the broker's numeric code and its name as `type`.
  const type = (error as { type?: unknown } | null)?.type;
  if (typeof type === 'string' && type.length > 0) return type;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.length > 0) return code;
  if (typeof code === 'number') return String(code);
  return (error as Error | null)?.name ?? 'Error';
}
