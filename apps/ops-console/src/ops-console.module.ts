import { Module } from '@nestjs/common';
import { OperatorAuthModule } from '@app/service-bootstrap';
import { ConsoleHealthHttpController } from './console-health.http.controller';
import { OpsConsoleConfig } from './ops-console.config';
import { OpsAuditReader } from './ops/ops-audit';
import { OpsConsoleHttpController } from './ops/ops-console.http.controller';
import { OpsPageHttpController } from './ops/ops-page.http.controller';
import { PeerProxy } from './ops/peer-proxy';
import { PipelineHealthReader } from './ops/pipeline-health';
import { OrderTimelineHttpController } from './timeline/order-timeline.http.controller';
import { OrderTimelineService } from './timeline/order-timeline.service';
import { PEER_OPTIONS, PeerOptions } from './timeline/peer-client';

/**
 * The ops console: the /ops page, the pipeline health, the merged audit log and an order's
 * timeline, read from the services' HTTP APIs with the operator's own token (the console
 * checks it first, with the same OPS_API_TOKEN(S) as the services).
 */
@Module({
  imports: [OperatorAuthModule.forService(OpsConsoleConfig)],
  controllers: [
    ConsoleHealthHttpController,
    OrderTimelineHttpController,
    OpsPageHttpController,
    OpsConsoleHttpController,
  ],
  providers: [
    { provide: PEER_OPTIONS, inject: [OpsConsoleConfig], useFactory: peerOptionsFromEnv },
    OrderTimelineService,
    PipelineHealthReader,
    OpsAuditReader,
    PeerProxy,
  ],
})
export class OpsConsoleModule {}

/** Where the services are, from the console's environment. */
function peerOptionsFromEnv(config: OpsConsoleConfig): PeerOptions {
  const base = (url: string) => url.replace(/\/+$/, '');
  return {
    orderUrl: base(config.ORDER_SERVICE_URL),
    fulfillmentUrl: base(config.FULFILLMENT_SERVICE_URL),
    accountingUrl: base(config.ACCOUNTING_SERVICE_URL),
    couponProviderUrl: base(config.COUPON_PROVIDER_URL),
    timeoutMs: config.PEER_TIMEOUT_MS,
  };
}
