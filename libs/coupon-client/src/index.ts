/** Typed HTTP client of the coupon provider; outcomes are values, a lost reply is `unknown`. */
export { CouponProviderClient } from './coupon-provider.client';
export type { CouponProviderClientOptions } from './coupon-provider.client';
/** Thrown for invalid client options and by the operator calls (stats, faults). */
export { CouponClientError } from './coupon-client.error';
/** Request, result and stats shapes of the coupon provider's API. */
export type {
  CallFailure,
  Coupon,
  CouponGrantStats,
  CouponProviderFaults,
  GrantRequest,
  GrantResult,
  RevokeResult,
} from './coupon-provider.types';
