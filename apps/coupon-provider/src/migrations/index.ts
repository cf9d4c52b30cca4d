import { CreateCouponTables1764800000100 } from './1764800000100-create-coupon-tables';

/** Every migration of the coupon-provider, in order; run by `main.js migrate` and the tests. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const CouponMigrations: Function[] = [CreateCouponTables1764800000100];
