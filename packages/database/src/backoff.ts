/**
 * Capped exponential backoff with jitter in the upper half of each step: a random delay in
 * [ceiling / 2, ceiling), where ceiling = min(max, base * 2^(attempt - 1)).
 */
export interface BackoffPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Delay before retry number `attempt` (1 for the first retry). */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(ceiling / 2 + (random() * ceiling) / 2);
}

/** Resolves after `ms`; a real delay between retries, never a stand-in for waiting on a condition. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
