import { Injectable } from '@nestjs/common';
import { OutboxWriter } from '@outbox-inbox/outbox';
import { DataSource } from 'typeorm';
import { Ticket } from './ticket.entity';
import { TicketOpenedV1 } from './ticket-opened.event';

@Injectable()
export class TicketsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxWriter,
  ) {}

  /** The ticket and its TicketOpened event commit together, or neither does. */
  open(title: string): Promise<Ticket> {
    return this.dataSource.transaction(async (manager) => {
      const ticket = await manager.save(Ticket, { title });
      await this.outbox.add(manager, TicketOpenedV1, {
        aggregateId: ticket.id,
        aggregateVersion: 1,
        payload: { title },
      });
      return ticket;
    });
  }
}
