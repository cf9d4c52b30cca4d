import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AggregateSelector, InboxDeliveryRecord, InboxOperations } from '@outbox-inbox/inbox';
import { LedgerQueries, OrderLedgerView } from './ledger.queries';
import { LedgerTimelineQuery } from './ledger-timeline.dto';
import { OrderIdPipe } from './order-id.pipe';
import { DegradedRead, validInput } from '@outbox-inbox/messaging/http';

/** The accounting-service's part of an order's timeline. */
export interface LedgerTimeline {
  orderId: string;
  /** The journals and lines booked for the order; null when nothing was booked. */
  ledger: OrderLedgerView | null;
  /** The order's (and its fulfillment's) events as this service's inbox took them in. */
  inbox: InboxDeliveryRecord[];
}

/** Read by the order-service's GET /orders/:id/timeline. */
@ApiTags('ledger')
@Controller('ledger')
export class LedgerTimelineHttpController {
  constructor(
    private readonly queries: LedgerQueries,
    private readonly inbox: InboxOperations,
  ) {}

  @Get('orders/:orderId/timeline')
  @DegradedRead()
  @ApiOperation({
    summary: "An order's journals and the events the ledger's inbox received",
    description:
      "What the order-service's timeline shows in the accounting lane; with `fulfillmentId`, the fulfillment's events too.",
  })
  async timeline(
    @Param('orderId', OrderIdPipe) orderId: string,
    @Query(validInput) { fulfillmentId }: LedgerTimelineQuery,
  ): Promise<LedgerTimeline> {
    const aggregates: AggregateSelector[] = [{ aggregateType: 'Order', aggregateId: orderId }];
    if (fulfillmentId !== undefined) {
      aggregates.push({ aggregateType: 'Fulfillment', aggregateId: fulfillmentId });
    }
    const [ledger, inbox] = await Promise.all([
      this.queries.findOrder(orderId),
      this.inbox.deliveriesOf(aggregates),
    ]);
    return { orderId, ledger: ledger ?? null, inbox };
  }
}
