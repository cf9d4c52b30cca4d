import { Module } from '@nestjs/common';
import { CouponProviderClient } from '@app/coupon-client';
import { COUPON_GATEWAY } from '../coupons/coupon-gateway.port';
import { FulfillmentServiceConfig } from '../fulfillment-service.config';
import { CouponProviderGateway } from '../coupons/coupon-provider.gateway';
import { FulfillmentRetrier } from './fulfillment-retrier';
import { FulfillmentTimelineReader } from './fulfillment-timeline';
import { FulfillmentTimelineHttpController } from './fulfillment-timeline.http.controller';
import { FULFILLMENT_OPTIONS, FulfillmentOptions } from './fulfillment.options';
import { FulfillmentRepository } from './fulfillment.repository';
import { FulfillmentService } from './fulfillment.service';
import { FulfillmentsHttpController } from './fulfillments.http.controller';
import { OrderEventsConsumer } from './order-events.consumer';

/**
 * Fulfillment: the consumer of order events, the coupon grants and their retries. Its settings
 * come from FulfillmentServiceConfig at DI time.
 */
@Module({
  controllers: [OrderEventsConsumer, FulfillmentsHttpController, FulfillmentTimelineHttpController],
  providers: [
    {
      provide: FULFILLMENT_OPTIONS,
      inject: [FulfillmentServiceConfig],
      useFactory: fulfillmentOptionsFromEnv,
    },
    {
      provide: COUPON_GATEWAY,
      inject: [FulfillmentServiceConfig],
      useFactory: (config: FulfillmentServiceConfig) =>
        new CouponProviderGateway(
          new CouponProviderClient({ baseUrl: config.COUPON_PROVIDER_URL }),
          config.COUPON_PROVIDER_TIMEOUT_MS,
        ),
    },
    FulfillmentRepository,
    FulfillmentService,
    FulfillmentRetrier,
    FulfillmentTimelineReader,
  ],
  exports: [FulfillmentService, FulfillmentRetrier],
})
export class FulfillmentModule {}

/** How fulfillment values coupons and retries, from the service's environment. */
function fulfillmentOptionsFromEnv(config: FulfillmentServiceConfig): FulfillmentOptions {
  return {
    couponRateBps: config.COUPON_RATE_BPS,
    maxAttempts: config.FULFILLMENT_MAX_ATTEMPTS,
    retryBaseDelayMs: config.FULFILLMENT_RETRY_BASE_MS,
    retryMaxDelayMs: config.FULFILLMENT_RETRY_MAX_MS,
    retryPollMs: config.FULFILLMENT_RETRY_POLL_MS,
  };
}
