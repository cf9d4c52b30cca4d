/** A section read from another service: its data, or why it could not be read. */
export type PeerSection<T> = { status: 'ok'; data: T } | { status: 'unavailable'; error: string };

/** Where the other services live and how long to wait for them. */
export interface PeerOptions {
  fulfillmentUrl: string;
  accountingUrl: string;
  couponProviderUrl: string;
  timeoutMs: number;
  /** The operator token the fulfillment and accounting services expect (this service's own). */
  opsApiToken?: string;
}

/** Injection token of PeerOptions. */
export const PEER_OPTIONS = Symbol('PEER_OPTIONS');

/**
 * GETs JSON from another service with a timeout, with the operator token when given. A refused
 * connection, a timeout or an answer other than 2xx (or 404 when `notFoundAs` is given) becomes
 * `unavailable` with the reason: a service that is down must not turn the caller's page into a
 * 500.
 */
export async function getPeerJson<T>(
  url: string,
  options: { timeoutMs: number; token?: string; notFoundAs?: { value: T } },
): Promise<PeerSection<T>> {
  const { timeoutMs, token, notFoundAs } = options;
  try {
    const response = await fetch(url, {
      headers: {
        accept: 'application/json',
        ...(token !== undefined && { authorization: `Bearer ${token}` }),
      },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status === 404 && notFoundAs) return { status: 'ok', data: notFoundAs.value };
    if (!response.ok) {
      return { status: 'unavailable', error: `${url} answered HTTP ${response.status}` };
    }
    return { status: 'ok', data: (await response.json()) as T };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const reason =
      (error as Error).name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : cause;
    return { status: 'unavailable', error: `${url}: ${reason ?? (error as Error).message}` };
  }
}
