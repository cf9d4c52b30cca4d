import { Module } from '@nestjs/common';
import { OrderServiceConfig } from '../order-service.config';
import { OrderTransitionsRepository } from '../orders/order-transitions.repository';
import { OrdersRepository } from '../orders/orders.repository';
import { PayCallbacksRepository } from '../payments/pay-callbacks.repository';
import { OrderTimelineHttpController } from '../timeline/order-timeline.http.controller';
import { OrderTimelineService } from '../timeline/order-timeline.service';
import { PEER_OPTIONS, PeerOptions } from '../timeline/peer-client';
import { OpsAuditReader } from './ops-audit';
import { OpsConsoleHttpController } from './ops-console.http.controller';
import { OpsPageHttpController } from './ops-page.http.controller';
import { PeerProxy } from './peer-proxy';
import { RecentOrdersReader } from './recent-orders';
import { PipelineHealthReader } from './pipeline-health';

/** The order timeline, the pipeline health and the /ops page, reading the other services. */
@Module({
  controllers: [OrderTimelineHttpController, OpsPageHttpController, OpsConsoleHttpController],
  providers: [
    { provide: PEER_OPTIONS, inject: [OrderServiceConfig], useFactory: peerOptionsFromEnv },
    OrdersRepository,
    OrderTransitionsRepository,
    PayCallbacksRepository,
    OrderTimelineService,
    PipelineHealthReader,
    RecentOrdersReader,
    OpsAuditReader,
    PeerProxy,
  ],
})
export class OrderOpsModule {}

/** Where the other services are, from the order-service's environment. */
function peerOptionsFromEnv(config: OrderServiceConfig): PeerOptions {
  return {
    fulfillmentUrl: config.FULFILLMENT_SERVICE_URL.replace(/\/+$/, ''),
    accountingUrl: config.ACCOUNTING_SERVICE_URL.replace(/\/+$/, ''),
    couponProviderUrl: config.COUPON_PROVIDER_URL.replace(/\/+$/, ''),
    timeoutMs: config.PEER_TIMEOUT_MS,
    // With named tokens only, the service reads its peers with the first of them.
    opsApiToken: config.OPS_API_TOKEN ?? config.OPS_API_TOKENS?.split(',')[0].split(/:(.*)/s)[1],
  };
}
