import { DynamicModule, Module } from '@nestjs/common';
import { CouponProviderClient } from '@app/coupon-client';
import { COUPON_GATEWAY, CouponGateway } from '../coupons/coupon-gateway.port';
import { CouponProviderGateway } from '../coupons/coupon-provider.gateway';
import { FulfillmentRetrier } from './fulfillment-retrier';
import { FulfillmentTimelineReader } from './fulfillment-timeline';
import { FulfillmentTimelineHttpController } from './fulfillment-timeline.http.controller';
import { FULFILLMENT_OPTIONS, FulfillmentOptions } from './fulfillment.options';
import { FulfillmentRepository } from './fulfillment.repository';
import { FulfillmentService } from './fulfillment.service';
import { FulfillmentsHttpController } from './fulfillments.http.controller';
import { OrderEventsConsumer } from './order-events.consumer';

/** Where the coupons come from: the provider's URL, or a gateway of the caller's (tests). */
export type CouponSource = { baseUrl: string; timeoutMs: number } | { gateway: CouponGateway };

@Module({})
export class FulfillmentModule {
  static forRoot(options: FulfillmentOptions, coupons: CouponSource): DynamicModule {
    return {
      module: FulfillmentModule,
      controllers: [
        OrderEventsConsumer,
        FulfillmentsHttpController,
        FulfillmentTimelineHttpController,
      ],
      providers: [
        { provide: FULFILLMENT_OPTIONS, useValue: options },
        {
          provide: COUPON_GATEWAY,
          useFactory: () =>
            'gateway' in coupons
              ? coupons.gateway
              : new CouponProviderGateway(
                  new CouponProviderClient({ baseUrl: coupons.baseUrl }),
                  coupons.timeoutMs,
                ),
        },
        FulfillmentRepository,
        FulfillmentService,
        FulfillmentRetrier,
        FulfillmentTimelineReader,
      ],
      exports: [FulfillmentService, FulfillmentRetrier],
    };
  }
}
