/** A JSON request to one of the services; returns status and parsed body (or text). */
export async function requestJson<T = unknown>(
  url: string,
  init: {
    method?: string;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<{ status: number; body: T }> {
  const response = await fetch(url, {
    method: init.method ?? (init.body !== undefined || init.rawBody !== undefined ? 'POST' : 'GET'),
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.rawBody ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: body as T };
}

/** Runs `work` over `items` with at most `limit` in flight. */
export async function mapConcurrently<I, O>(
  items: readonly I[],
  limit: number,
  work: (item: I, index: number) => Promise<O>,
): Promise<O[]> {
  const results: O[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  });
  await Promise.all(workers);
  return results;
}

/** The body of a 2xx answer; anything else throws naming the call. */
export async function expectOk<T>(
  call: Promise<{ status: number; body: unknown }>,
  what: string,
): Promise<T> {
  const { status, body } = await call;
  if (status < 200 || status >= 300)
    throw new Error(`${what}: HTTP ${status} ${JSON.stringify(body)}`);
  return body as T;
}
