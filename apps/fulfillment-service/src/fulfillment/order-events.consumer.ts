import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@outbox-inbox/messaging';
import {
  OrderCancelledV1,
  OrderCancelledV1Payload,
  OrderPaidV1,
  OrderPaidV1Payload,
} from '@app/trading-events';
import { InboxContext, OnEvent } from '@outbox-inbox/inbox';
import { FulfillmentService } from './fulfillment.service';

/** Order events, applied through the inbox: once each, in aggregate-version order. */
@Controller()
export class OrderEventsConsumer {
  constructor(private readonly fulfillments: FulfillmentService) {}

  @OnEvent(OrderPaidV1)
  async onOrderPaid(
    @Payload() event: EventEnvelope<OrderPaidV1Payload>,
    @Ctx() context: InboxContext,
  ): Promise<void> {
    await this.fulfillments.handleOrderPaid(context.manager, event);
  }

  @OnEvent(OrderCancelledV1)
  async onOrderCancelled(
    @Payload() event: EventEnvelope<OrderCancelledV1Payload>,
    @Ctx() context: InboxContext,
  ): Promise<void> {
    await this.fulfillments.handleOrderCancelled(context.manager, event);
  }
}
