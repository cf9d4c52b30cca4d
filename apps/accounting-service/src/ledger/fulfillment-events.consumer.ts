import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@outbox-inbox/messaging';
import {
  FulfillmentDoneV1,
  FulfillmentDoneV1Payload,
  FulfillmentRevertedV1,
  FulfillmentRevertedV1Payload,
} from '@app/trading-events';
import { InboxContext, OnEvent } from '@outbox-inbox/inbox';
import { deadLetterJournalErrors } from './dead-letter-journal-errors';
import { LedgerService } from './ledger.service';

/** Fulfillment events, booked through the inbox: once each, in aggregate-version order. */
@Controller()
export class FulfillmentEventsConsumer {
  constructor(private readonly ledger: LedgerService) {}

  @OnEvent(FulfillmentDoneV1)
  async onFulfillmentDone(
    @Payload() event: EventEnvelope<FulfillmentDoneV1Payload>,
    @Ctx() context: InboxContext,
  ): Promise<void> {
    await deadLetterJournalErrors(() => this.ledger.bookFulfillmentDone(context.manager, event));
  }

  @OnEvent(FulfillmentRevertedV1)
  async onFulfillmentReverted(
    @Payload() event: EventEnvelope<FulfillmentRevertedV1Payload>,
    @Ctx() context: InboxContext,
  ): Promise<void> {
    await deadLetterJournalErrors(() =>
      this.ledger.bookFulfillmentReverted(context.manager, event),
    );
  }
}
