import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InboxModule } from '@outbox-inbox/inbox';
import { EventRegistry } from '@outbox-inbox/messaging';
import { OutboxModule } from '@outbox-inbox/outbox';
import { dataSourceOptions } from './data-source';
import { TicketOpenedConsumer } from './ticket-opened.consumer';
import { TicketOpenedV1 } from './ticket-opened.event';
import { TicketsService } from './tickets.service';

const { KAFKA_BROKERS = '', TICKET_TOPIC = 'tickets' } = process.env;
const kafka = { brokers: KAFKA_BROKERS.split(','), clientId: 'tickets-app' };

/** The app: its migrations are run beforehand by the TypeORM CLI (`npm run migrate`). */
@Module({
  imports: [
    TypeOrmModule.forRoot(dataSourceOptions()),
    OutboxModule.forRoot({ kafka, topicFor: () => TICKET_TOPIC }),
    InboxModule.forRoot({
      consumer: 'ticket-notifier',
      kafka,
      topics: [TICKET_TOPIC],
      registry: new EventRegistry([TicketOpenedV1]),
    }),
  ],
  controllers: [TicketOpenedConsumer],
  providers: [TicketsService],
})
export class AppModule {}
