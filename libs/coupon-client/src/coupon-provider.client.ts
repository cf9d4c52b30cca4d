import { CouponClientError } from './coupon-client.error';
import {
  CallFailure,
  Coupon,
  CouponGrantStats,
  CouponProviderFaults,
  GrantRequest,
  GrantResult,
  RevokeResult,
} from './coupon-provider.types';
import { HttpCallTimeout, KeepAliveRequester } from './keep-alive-request';

/** Options of CouponProviderClient, validated at construction. */
export interface CouponProviderClientOptions {
  /** e.g. http://127.0.0.1:3003 */
  baseUrl: string;
  /** Per-call timeout when the call does not give one. Default 5000 ms. */
  defaultTimeoutMs?: number;
  /** Bearer token of the provider's operator routes (the fault switch); sent only to those. */
  operatorToken?: string;
}

type Answer = { kind: 'answer'; status: number; body: unknown } | ({ kind: 'none' } & CallFailure);

/**
 * Typed HTTP client of the coupon provider over keep-alive node:http connections. Business
 * calls never throw: every outcome, including "no answer", is a value the caller must handle; a
 * call that has no complete answer within its timeout is abandoned and reported as `unknown`,
 * never as failed.
 */
export class CouponProviderClient {
  private readonly baseUrl: string;
  private readonly defaultTimeoutMs: number;
  private readonly operatorToken?: string;
  private readonly http: KeepAliveRequester;

  constructor(options: CouponProviderClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch (cause) {
      throw new CouponClientError('COUPON_CLIENT_OPTIONS', 'baseUrl is not a URL', { cause });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new CouponClientError('COUPON_CLIENT_OPTIONS', 'baseUrl must be http(s)');
    }
    this.baseUrl = url.toString().replace(/\/$/, '');
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 5_000;
    this.operatorToken = options.operatorToken;
    assertTimeout(this.defaultTimeoutMs);
    this.http = new KeepAliveRequester(url);
  }

  /** Grants a coupon, or returns the one this idempotency key already produced. */
  async grant(request: GrantRequest, options: { timeoutMs?: number } = {}): Promise<GrantResult> {
    const { idempotencyKey, ...params } = request;
    const answer = await this.call('POST', '/coupons/grants', {
      body: params,
      headers: { 'idempotency-key': idempotencyKey },
      timeoutMs: options.timeoutMs,
    });
    if (answer.kind === 'none')
      return { outcome: 'unknown', cause: answer.cause, message: answer.message };
    const { status, body } = answer;
    if (status === 200 || status === 201) {
      return { outcome: 'granted', coupon: body as Coupon, replayed: status === 200 };
    }
    if (status === 409) return { outcome: 'conflict', message: messageOf(body) };
    if (status >= 500 || status === 429) {
      return { outcome: 'unavailable', status, message: messageOf(body) };
    }
    return { outcome: 'rejected', status, message: messageOf(body) };
  }

  /** Revokes a coupon (idempotent). */
  async revoke(couponCode: string, options: { timeoutMs?: number } = {}): Promise<RevokeResult> {
    const answer = await this.call('POST', `/coupons/${encodeURIComponent(couponCode)}/revoke`, {
      timeoutMs: options.timeoutMs,
    });
    if (answer.kind === 'none')
      return { outcome: 'unknown', cause: answer.cause, message: answer.message };
    if (answer.status === 200) return { outcome: 'revoked', coupon: answer.body as Coupon };
    if (answer.status === 404) return { outcome: 'not-found' };
    return { outcome: 'unavailable', status: answer.status, message: messageOf(answer.body) };
  }

  /** Grants per key and totals; throws CouponClientError when the provider does not answer 200. */
  async stats(): Promise<CouponGrantStats> {
    return (await this.operatorCall('GET', '/coupons/grants/stats')) as CouponGrantStats;
  }

  /** Switches fault modes; returns the settings in force. Throws CouponClientError on failure. */
  async setFaults(faults: CouponProviderFaults): Promise<Required<CouponProviderFaults>> {
    return (await this.operatorCall('PUT', '/faults', faults)) as Required<CouponProviderFaults>;
  }

  private async operatorCall(method: string, path: string, body?: object): Promise<unknown> {
    const headers: Record<string, string> = this.operatorToken
      ? { authorization: `Bearer ${this.operatorToken}` }
      : {};
    const answer = await this.call(method, path, { body, headers });
    if (answer.kind === 'answer' && answer.status === 200) return answer.body;
    const detail = answer.kind === 'answer' ? `HTTP ${answer.status}` : answer.message;
    throw new CouponClientError('COUPON_CLIENT_CALL', `${method} ${path} failed: ${detail}`);
  }

  private async call(
    method: string,
    path: string,
    options: { body?: object; headers?: Record<string, string>; timeoutMs?: number },
  ): Promise<Answer> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    assertTimeout(timeoutMs);
    try {
      const { status, text } = await this.http.request(new URL(`${this.baseUrl}${path}`), {
        method,
        headers: { 'content-type': 'application/json', ...options.headers },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        timeoutMs,
      });
      return { kind: 'answer', status, body: parseJson(text) };
    } catch (error) {
      if (error instanceof HttpCallTimeout) {
        return { kind: 'none', cause: 'timeout', message: error.message };
      }
      return { kind: 'none', cause: 'network', message: describeNetworkError(error) };
    }
  }

  /** Closes the pooled keep-alive connections (calls after this open new ones). */
  close(): void {
    this.http.close();
  }
}

function assertTimeout(timeoutMs: number): void {
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw new CouponClientError('COUPON_CLIENT_OPTIONS', `timeoutMs must be a positive integer`);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function messageOf(body: unknown): string {
  const message = (body as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : JSON.stringify(message ?? body);
}

function describeNetworkError(error: unknown): string {
  const { message, code } = error as { message?: string; code?: string };
  return [code, message].filter(Boolean).join(': ');
}
