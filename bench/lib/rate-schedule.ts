/**
 * When the i-th of `count` open-loop requests is due, in ms after the start, at a fixed
 * `ratePerSecond`: i * 1000 / rate. Open loop means a slow answer never delays the next
 * request, so queueing shows up as latency instead of as a lower offered rate.
 */
export function dueOffsetsMs(count: number, ratePerSecond: number): number[] {
  if (!(ratePerSecond > 0) || !Number.isFinite(ratePerSecond)) {
    throw new Error(`rate must be a positive finite number, got ${ratePerSecond}`);
  }
  if (!Number.isInteger(count) || count < 0) {
    throw new Error(`count must be a non-negative integer, got ${count}`);
  }
  return Array.from({ length: count }, (_, i) => (i * 1000) / ratePerSecond);
}

/**
 * Calls `send(i)` for i = 0..count-1 at a fixed rate (open loop: never waits for an answer
 * before the next send) and resolves with every result once all have settled. Timers fire late
 * on a busy machine; each send then goes out at once, and `lateMs` reports the worst lag
 * between a send's due time and its actual start.
 */
export async function runAtFixedRate<T>(
  count: number,
  ratePerSecond: number,
  send: (i: number) => Promise<T>,
): Promise<{ results: T[]; lateMs: number }> {
  const offsets = dueOffsetsMs(count, ratePerSecond);
  const started = performance.now();
  const pending: Promise<T>[] = [];
  let lateMs = 0;
  for (let i = 0; i < count; i++) {
    const wait = started + offsets[i] - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    lateMs = Math.max(lateMs, performance.now() - (started + offsets[i]));
    pending.push(send(i));
  }
  return { results: await Promise.all(pending), lateMs };
}
