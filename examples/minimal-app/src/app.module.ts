import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { mysqlDataSourceOptions } from '@outbox-inbox/database';
import { InboxModule } from '@outbox-inbox/inbox';
import { EventRegistry } from '@outbox-inbox/messaging';
import { OutboxModule } from '@outbox-inbox/outbox';
import { migrations } from './migrations';
import { TicketOpenedConsumer } from './ticket-opened.consumer';
import { Ticket } from './ticket.entity';
import { TicketOpenedV1 } from './ticket-opened.event';
import { TicketsService } from './tickets.service';

const env = (name: string) => process.env[name] ?? `missing ${name}`;
const kafka = () => ({ brokers: env('KAFKA_BROKERS').split(','), clientId: 'minimal-app' });
const topic = () => env('TICKET_TOPIC');

@Module({
  imports: [
    TypeOrmModule.forRoot({
      ...mysqlDataSourceOptions({ url: env('DATABASE_URL'), migrations }),
      entities: [Ticket],
    }),
    OutboxModule.forRootAsync({ useFactory: () => ({ kafka: kafka(), topicFor: topic }) }),
    InboxModule.forRootAsync({
      useFactory: () => ({
        consumer: 'ticket-stats',
        kafka: kafka(),
        topics: [topic()],
        registry: new EventRegistry([TicketOpenedV1]),
      }),
    }),
  ],
  controllers: [TicketOpenedConsumer],
  providers: [TicketsService],
})
export class AppModule {}
