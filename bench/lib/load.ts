import { EventEmitter } from 'node:events';
import autocannon from 'autocannon';

/** One request autocannon sends; `body` and `headers` vary per request when given. */
export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

/** What one load run measured; latencies in ms as autocannon records them. */
export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
}

/**
 * Drives `baseUrl` with autocannon over `connections` keep-alive connections (one request in
 * flight on each), either a fixed number of requests (`next` gives each one) or for
 * `durationSeconds` (the same request again and again). Throws when any answer was not 2xx or
 * failed, so a rate never counts errors.
 *
 * autocannon notices that a fixed amount is done only on its next sample tick (every second
 * by default), so a run of 1,500 requests that takes 1.2 s would be timed as 2 s: the rate is
 * taken from the start to the last response instead, and `onLastResponse` runs right when it
 * arrives (to read CPU counters before the idle tail).
 */
export async function drive(options: {
  baseUrl: string;
  connections: number;
  next: () => LoadRequest;
  amount?: number;
  durationSeconds?: number;
  onLastResponse?: () => void;
}): Promise<LoadResult> {
  const started = performance.now();
  let responses = 0;
  let lastResponse = started;
  // autocannon's promise is also its event emitter (its types say only the promise).
  const run = autocannon({
    url: options.baseUrl,
    connections: options.connections,
    pipelining: 1,
    sampleInt: 100,
    ...(options.amount !== undefined
      ? { amount: options.amount }
      : { duration: options.durationSeconds ?? 3 }),
    requests: [
      {
        setupRequest: (request) => {
          const next = options.next();
          return {
            ...request,
            method: next.method,
            path: next.path,
            body: next.body,
            headers: { ...request.headers, ...next.headers },
          };
        },
      },
    ],
  });
  (run as unknown as EventEmitter).on('response', () => {
    lastResponse = performance.now();
    if (++responses === options.amount) options.onLastResponse?.();
  });
  const result = await run;
  const elapsed =
    ((options.amount !== undefined ? lastResponse : performance.now()) - started) / 1000;
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `load on ${options.baseUrl}: ${result.non2xx} non-2xx, ${result.errors} errors, ` +
        `${result.timeouts} timeouts of ${result.requests.total} requests`,
    );
  }
  return {
    requestsPerSecond: result.requests.total / elapsed,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
  };
}
