/**
 * Settles as `work` does, or rejects with "no answer within `ms` ms" once `ms` have passed
 * first (health checks and probes: a hung query or broker call must not hang the caller too).
 * `work` itself keeps running; its late outcome is dropped.
 */
export async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
