/** What fulfillment asks of the coupon provider; the adapter speaks its HTTP API. */
export interface CouponGrantRequest {
  /** The same key for every attempt of one fulfillment: the OrderPaid event key. */
  idempotencyKey: string;
  userId: string;
  orderId: string;
  value: number;
  currency: string;
}

export type CouponGrantResult =
  | { kind: 'granted'; couponCode: string }
  /** The provider refused for good (same key, other parameters): retrying cannot help. */
  | { kind: 'rejected'; reason: string }
  /** Down, erroring or timed out: the outcome may be unknown, so retry with the same key. */
  | { kind: 'failed'; reason: string };

export type CouponRevokeResult = { kind: 'revoked' } | { kind: 'failed'; reason: string };

/** The coupon provider, as fulfillment sees it. */
export interface CouponGateway {
  grant(request: CouponGrantRequest): Promise<CouponGrantResult>;
  revoke(couponCode: string): Promise<CouponRevokeResult>;
}

/** Injection token of the CouponGateway. */
export const COUPON_GATEWAY = Symbol('CouponGateway');
