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

/**
 * The order moved to PAYING with a payment id. Every order transition writes an event, so
 * an order's event versions are gapless (1, 2, 3, …) and consumers can gate on them.
 */
export class OrderPaymentStartedV1Payload {
  @IsString() @Length(1, 32) orderId!: string;
  @IsString() @Length(1, 64) payOrderId!: string;
  @IsInt() @Min(1) @Max(1_000_000_000_000) amount!: number;
  @IsISO4217CurrencyCode() currency!: string;
  @IsISO8601({ strict: true }) startedAt!: string;
}

export const OrderPaymentStartedV1 = defineEvent({
  eventType: 'OrderPaymentStarted',
  aggregateType: 'Order',
  schemaVersion: 1,
  payload: OrderPaymentStartedV1Payload,
});
