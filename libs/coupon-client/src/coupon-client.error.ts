/** Thrown for invalid options, and by the operator calls (stats, faults) on any failure. */
export class CouponClientError extends Error {
  readonly code: 'COUPON_CLIENT_OPTIONS' | 'COUPON_CLIENT_CALL';

  constructor(code: CouponClientError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = 'CouponClientError';
  }
}
