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

/** A done fulfillment was compensated: the coupon was revoked. */
export class FulfillmentRevertedV1Payload {
  @IsString() @Length(1, 32) fulfillmentId!: string;
  @IsString() @Length(1, 32) orderId!: string;
  @IsString() @Length(1, 64) couponCode!: string;
  @IsInt() @Min(0) @Max(1_000_000_000_000) couponValue!: number;
  @IsISO4217CurrencyCode() currency!: string;
  @IsString() @Length(1, 256) reason!: string;
  @IsISO8601({ strict: true }) revertedAt!: string;
}

export const FulfillmentRevertedV1 = defineEvent({
  eventType: 'FulfillmentReverted',
  aggregateType: 'Fulfillment',
  schemaVersion: 1,
  payload: FulfillmentRevertedV1Payload,
});
