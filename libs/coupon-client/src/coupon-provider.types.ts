/** The coupon provider's API, as its client sees it. */

/** A coupon as the provider returns it. */
export interface Coupon {
  couponCode: string;
  idempotencyKey: string;
  userId: string;
  orderId: string;
  value: number;
  currency: string;
  status: 'GRANTED' | 'REVOKED';
  grantedAt: string;
  revokedAt: string | null;
}

/** What to grant; `idempotencyKey` makes retries safe (fulfillment uses the event key). */
export interface GrantRequest {
  idempotencyKey: string;
  userId: string;
  orderId: string;
  /** Minor units. */
  value: number;
  currency: string;
}

/** Why a call has no definite answer, or failed without one. */
export interface CallFailure {
  /** `timeout`: no answer in time; `network`: connection refused/reset or reply lost. */
  cause: 'timeout' | 'network';
  message: string;
}

/**
 * The result of a grant. `granted` (replayed: the key was known) and `conflict` are final;
 * `unavailable` (the provider answered 5xx or 429: nothing granted as far as it says) and
 * `unknown` (no answer: it may have granted) are both retried with the same key.
 */
export type GrantResult =
  | { outcome: 'granted'; coupon: Coupon; replayed: boolean }
  | { outcome: 'conflict'; message: string }
  | { outcome: 'rejected'; status: number; message: string }
  | { outcome: 'unavailable'; status: number; message: string }
  | ({ outcome: 'unknown' } & CallFailure);

/** The result of a revocation; revoking twice is `revoked` both times. */
export type RevokeResult =
  | { outcome: 'revoked'; coupon: Coupon }
  | { outcome: 'not-found' }
  | { outcome: 'unavailable'; status: number; message: string }
  | ({ outcome: 'unknown' } & CallFailure);

/** The provider's fault switches (PUT /faults); omitted fields keep their value. */
export interface CouponProviderFaults {
  latencyMs?: number;
  errorRate?: number;
  dropReplyRate?: number;
  failNextRequests?: number;
  dropNextReplies?: number;
}

/** GET /coupons/grants/stats. */
export interface CouponGrantStats {
  keys: number;
  grants: number;
  revoked: number;
  requests: number;
  keysWithSeveralGrants: number;
  perKey: Array<{ idempotencyKey: string; grants: number; requests: number }>;
}
