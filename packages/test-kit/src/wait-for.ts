/** What `waitFor` returns: the condition's value, minus the falsy ones it waited through. */
export type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/** Options for `waitFor`. */
export interface WaitForOptions {
  /** Give up after this long; a liveness bound, not a performance assertion. Default 20 s. */
  timeoutMs?: number;
  /** Pause between checks. Default 25 ms. */
  intervalMs?: number;
  /** Named in the error when the condition never holds. */
  description?: string;
}

/**
 * Polls `condition` until it returns a truthy value (which is returned) or the timeout passes
 * (then it throws, with the last error the condition threw). Tests wait with this, never with
 * fixed sleeps.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  options: WaitForOptions = {},
): Promise<Truthy<T>> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const intervalMs = options.intervalMs ?? 25;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value) return value as Truthy<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const what = options.description ?? condition.toString().slice(0, 200);
      const cause = lastError
        ? `; last error: ${String((lastError as Error).message ?? lastError)}`
        : '';
      throw new Error(`waitFor timed out after ${timeoutMs} ms: ${what}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
