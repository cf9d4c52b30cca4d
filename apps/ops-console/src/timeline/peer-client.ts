/** A section read from another service: its data, or why it could not be read. */
export type PeerSection<T> = { status: 'ok'; data: T } | { status: 'unavailable'; error: string };

/** Where the services live and how long to wait for them. */
export interface PeerOptions {
  orderUrl: string;
  fulfillmentUrl: string;
  accountingUrl: string;
  couponProviderUrl: string;
  timeoutMs: number;
}

/** Injection token of PeerOptions. */
export const PEER_OPTIONS = Symbol('PEER_OPTIONS');

/**
 * GETs JSON from a service with a timeout, with the operator's Authorization header when given
 * (the console passes on the caller's own, so the service names them). A refused
 * connection, a timeout or an answer other than 2xx (or 404 when `notFoundAs` is given) becomes
 * `unavailable` with the reason: a service that is down must not turn the caller's page into a
 * 500.
 */
export async function getPeerJson<T>(
  url: string,
  options: { timeoutMs: number; authorization?: string; notFoundAs?: { value: T } },
): Promise<PeerSection<T>> {
  const { timeoutMs, authorization, notFoundAs } = options;
  try {
    const response = await fetch(url, {
      headers: {
        accept: 'application/json',
        ...(authorization !== undefined && { authorization }),
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
