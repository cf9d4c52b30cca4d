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

/** The order was paid: the fact fulfillment and accounting act on. */
export class OrderPaidV1Payload {
  @IsString() @Length(1, 32) orderId!: string;
  @IsString() @Length(1, 64) userId!: string;
  /** The payment provider's id of this payment. */
  @IsString() @Length(1, 64) payOrderId!: string;
  /** The provider notification that proved the payment. */
  @IsString() @Length(1, 64) notifyId!: string;
  /** Minor units (cents). */
  @IsInt() @Min(1) @Max(1_000_000_000_000) amount!: number;
  @IsISO4217CurrencyCode() currency!: string;
  @IsISO8601({ strict: true }) paidAt!: string;
}

export const OrderPaidV1 = defineEvent({
  eventType: 'OrderPaid',
  aggregateType: 'Order',
  schemaVersion: 1,
  payload: OrderPaidV1Payload,
});
