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
import { deadLetterJournalErrors } from './dead-letter-journal-errors';
import { LedgerService } from './ledger.service';

/**
 * Order events, booked through the inbox: once each, in aggregate-version order (so an
 * OrderCancelled always finds the OrderPaid of the same order already booked).
 */
@Controller()
export class OrderEventsConsumer {
  constructor(private readonly ledger: LedgerService) {}

  @OnEvent(OrderPaidV1)
  async onOrderPaid(
    @Payload() event: EventEnvelope<OrderPaidV1Payload>,
    @Ctx() context: InboxContext,
  ): Promise<void> {
    await deadLetterJournalErrors(() => this.ledger.bookOrderPaid(context.manager, event));
  }

  @OnEvent(OrderCancelledV1)
  async onOrderCancelled(
    @Payload() event: EventEnvelope<OrderCancelledV1Payload>,
    @Ctx() context: InboxContext,
  ): Promise<void> {
    await deadLetterJournalErrors(() => this.ledger.bookOrderCancelled(context.manager, event));
  }
}
