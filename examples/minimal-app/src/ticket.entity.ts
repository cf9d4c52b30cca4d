import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('ticket')
export class Ticket {
  @PrimaryColumn({ length: 36 }) id!: string;
  @Column({ length: 200 }) title!: string;
}
