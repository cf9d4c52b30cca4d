import { defineEvent } from '@outbox-inbox/messaging';
import { IsString, Length } from 'class-validator';

export class TicketOpenedV1Payload {
  @IsString() @Length(1, 200) title!: string;
}

export const TicketOpenedV1 = defineEvent({
  eventType: 'TicketOpened',
  aggregateType: 'Ticket',
  schemaVersion: 1,
  payload: TicketOpenedV1Payload,
});
