import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { mysqlDataSourceOptions } from '@outbox-inbox/database/mysql';
import { InboxModule } from '@outbox-inbox/inbox';
import { InboxHttpModule } from '@outbox-inbox/inbox/http';
import { EventRegistry } from '@outbox-inbox/messaging';
import { OutboxModule } from '@outbox-inbox/outbox';
import { OutboxHttpModule } from '@outbox-inbox/outbox/http';
import { migrations } from './migrations';
import { TicketOpenedConsumer } from './ticket-opened.consumer';
import { Ticket } from './ticket.entity';
import { TicketOpenedV1 } from './ticket-opened.event';
import { TicketsService } from './tickets.service';

const { DATABASE_URL = '', KAFKA_BROKERS = '', TICKET_TOPIC = 'tickets' } = process.env;
const kafka = { brokers: KAFKA_BROKERS.split(','), clientId: 'minimal-app' };

@Module({
  imports: [
    TypeOrmModule.forRoot({
      ...mysqlDataSourceOptions({ url: DATABASE_URL, entities: [Ticket], migrations }),
      migrationsRun: true,
    }),
    OutboxModule.forRoot({ kafka, topicFor: () => TICKET_TOPIC }),
    InboxModule.forRoot({
      consumer: 'ticket-notifier',
      kafka,
      topics: [TICKET_TOPIC],
      registry: new EventRegistry([TicketOpenedV1]),
    }),
    OutboxHttpModule.register(), // the /outbox operator endpoints (optional)
    InboxHttpModule.register(), // the /inbox operator endpoints (optional)
  ],
  controllers: [TicketOpenedConsumer],
  providers: [TicketsService],
})
export class AppModule {}
