import { IsISO8601, IsString, Length } from 'class-validator';
import { defineEvent } from '../event-definition';

export class OrderPaymentFailedV1Payload {
  @IsString() @Length(1, 32) orderId!: string;
  @IsString() @Length(1, 64) payOrderId!: string;
  @IsString() @Length(1, 64) notifyId!: string;
  @IsString() @Length(1, 256) reason!: string;
  @IsISO8601({ strict: true }) failedAt!: string;
}

export const OrderPaymentFailedV1 = defineEvent({
  eventType: 'OrderPaymentFailed',
  aggregateType: 'Order',
  schemaVersion: 1,
  payload: OrderPaymentFailedV1Payload,
});
