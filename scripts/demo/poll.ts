import { setTimeout as sleep } from 'node:timers/promises';

/** How long pollUntil reads, and what it reports while it waits. */
export interface PollOptions<T> {
  timeoutMs: number;
  /** Pause between readings. Default 500 ms. */
  intervalMs?: number;
  /** Called with the latest reading, at most every `reportEveryMs` (default 3 s), while waiting. */
  onWait?: (value: T) => void;
  reportEveryMs?: number;
}

/**
 * Reads until `done` holds or time runs out, and returns the last reading either way, with
 * whether `done` held: the demo judges a run as it stands, so a timeout is for the verdict to
 * name, not an exception.
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: PollOptions<T>,
): Promise<{ value: T; done: boolean }> {
  const deadline = Date.now() + options.timeoutMs;
  const reportEveryMs = options.reportEveryMs ?? 3_000;
  let lastReport = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return { value, done: true };
    if (Date.now() > deadline) return { value, done: false };
    if (options.onWait && Date.now() - lastReport > reportEveryMs) {
      lastReport = Date.now();
      options.onWait(value);
    }
    await sleep(options.intervalMs ?? 500);
  }
}
