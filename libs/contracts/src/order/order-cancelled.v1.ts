import { IsISO8601, IsString, Length } from 'class-validator';
import { defineEvent } from '../event-definition';

export class OrderCancelledV1Payload {
  @IsString() @Length(1, 32) orderId!: string;
  @IsString() @Length(1, 64) userId!: string;
  @IsString() @Length(1, 256) reason!: string;
  @IsISO8601({ strict: true }) cancelledAt!: string;
}

export const OrderCancelledV1 = defineEvent({
  eventType: 'OrderCancelled',
  aggregateType: 'Order',
  schemaVersion: 1,
  payload: OrderCancelledV1Payload,
});
