import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { InboxContext, OnEvent } from '@outbox-inbox/inbox';
import { EventEnvelope } from '@outbox-inbox/messaging';
import { TicketOpenedV1, TicketOpenedV1Payload } from './ticket-opened.event';

@Controller()
export class TicketOpenedConsumer {
  /** Runs in the inbox's transaction: applied once per event, however often Kafka delivers it. */
  @OnEvent(TicketOpenedV1)
  async onOpened(
    @Payload() event: EventEnvelope<TicketOpenedV1Payload>,
    @Ctx() context: InboxContext,
  ): Promise<void> {
    await context.manager.query(
      'UPDATE ticket_stats SET opened = opened + 1, last_ticket = ? WHERE id = 1',
      [event.payload.ticketId],
    );
  }
}
