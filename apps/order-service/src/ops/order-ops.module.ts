import { DynamicModule, Module } from '@nestjs/common';
import { OrderTransitionsRepository } from '../orders/order-transitions.repository';
import { OrdersRepository } from '../orders/orders.repository';
import { OrderTimelineHttpController } from '../timeline/order-timeline.http.controller';
import { OrderTimelineService } from '../timeline/order-timeline.service';
import { PEER_OPTIONS, PeerOptions } from '../timeline/peer-client';
import { OpsPageHttpController } from './ops-page.http.controller';
import { PipelineHealthReader } from './pipeline-health';

/** The order timeline, the pipeline health and the /ops page, reading the other services. */
@Module({})
export class OrderOpsModule {
  static forRoot(peers: PeerOptions): DynamicModule {
    return {
      module: OrderOpsModule,
      controllers: [OrderTimelineHttpController, OpsPageHttpController],
      providers: [
        { provide: PEER_OPTIONS, useValue: peers },
        OrdersRepository,
        OrderTransitionsRepository,
        OrderTimelineService,
        PipelineHealthReader,
      ],
    };
  }
}
