import {
  IsInt,
  IsISO4217CurrencyCode,
  IsISO8601,
  IsString,
  Length,
  Max,
  Min,
} from 'class-validator';
import { defineEvent } from '../event-definition';

export class OrderCreatedV1Payload {
  @IsString() @Length(1, 32) orderId!: string;
  @IsString() @Length(1, 64) userId!: string;
  /** Minor units (cents). */
  @IsInt() @Min(1) @Max(1_000_000_000_000) amount!: number;
  @IsISO4217CurrencyCode() currency!: string;
  @IsISO8601({ strict: true }) createdAt!: string;
}

export const OrderCreatedV1 = defineEvent({
  eventType: 'OrderCreated',
  aggregateType: 'Order',
  schemaVersion: 1,
  payload: OrderCreatedV1Payload,
});
