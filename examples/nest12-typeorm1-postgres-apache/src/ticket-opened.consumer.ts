import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { InboxContext, OnEvent } from '@outbox-inbox/inbox';
import { EventEnvelope } from '@outbox-inbox/messaging';
import { Ticket } from './ticket.entity.js';
import { TicketOpenedV1 } from './ticket-opened.event.js';

@Controller()
export class TicketOpenedConsumer {
  /** Runs in the inbox's transaction: applied once per event, however often Kafka delivers it. */
  @OnEvent(TicketOpenedV1)
  async onOpened(@Payload() event: EventEnvelope, @Ctx() context: InboxContext): Promise<void> {
    await context.manager.increment(Ticket, { id: event.aggregateId }, 'notified', 1);
  }
}
