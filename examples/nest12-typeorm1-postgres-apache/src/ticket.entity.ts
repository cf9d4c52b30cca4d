import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('ticket')
export class Ticket {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column() title!: string;
  /** How often the TicketOpened consumer applied this ticket's event: 1, however often delivered. */
  @Column({ default: 0 }) notified!: number;
}
