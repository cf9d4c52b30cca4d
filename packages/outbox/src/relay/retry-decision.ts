import { backoffDelay } from '@outbox-inbox/database';
import { OutboxBackoffOptions } from './outbox-relay.options';

/** What happens to a row whose publish attempt failed. */
export type RetryDecision = { kind: 'retry'; delayMs: number } | { kind: 'dead' };

/**
 * After attempt number `attempts` (1 = the first send) failed: retry after an exponential
 * delay with jitter, or DEAD once `maxAttempts` attempts were made.
 */
export function decideRetry(
  attempts: number,
  maxAttempts: number,
  backoff: OutboxBackoffOptions,
  random: () => number = Math.random,
): RetryDecision {
  if (attempts >= maxAttempts) return { kind: 'dead' };
  return { kind: 'retry', delayMs: backoffDelay(backoff, attempts, random) };
}
