import { backoffDelay } from '@outbox-inbox/database';
import { RetrySchedule } from './domain/fulfillment';

/** How fulfillment values coupons and retries failed grants. */
export interface FulfillmentOptions {
  /** Coupon value in basis points of the paid amount (500 = 5 %). */
  couponRateBps: number;
  /** Grants per fulfillment before it is left FAILED and stuck. */
  maxAttempts: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  /** How often the retrier looks for FAILED fulfillments that are due. */
  retryPollMs: number;
}

/** Injection token of the FulfillmentOptions. */
export const FULFILLMENT_OPTIONS = Symbol('FulfillmentOptions');

export function retryScheduleOf(options: FulfillmentOptions): RetrySchedule {
  return {
    maxAttempts: options.maxAttempts,
    delayAfter: (attempt) =>
      backoffDelay(
        { baseDelayMs: options.retryBaseDelayMs, maxDelayMs: options.retryMaxDelayMs },
        attempt,
      ),
  };
}
