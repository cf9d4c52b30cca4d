/** Typed HTTP client of the coupon provider; outcomes are values, a lost reply is `unknown`. */
export { CouponClientError, CouponProviderClient } from './coupon-provider.client';
/** Request, result and stats shapes of the coupon provider's API. */
export type {
  CallFailure,
  Coupon,
  CouponGrantStats,
  CouponProviderClientOptions,
  CouponProviderFaults,
  GrantRequest,
  GrantResult,
  RevokeResult,
} from './coupon-provider.client';
