import {
  IsIn,
  IsInt,
  IsISO4217CurrencyCode,
  IsISO8601,
  IsString,
  Length,
  Max,
  Min,
} from 'class-validator';
import { defineEvent } from '../event-definition';

/** Fulfillment granted what the paid order earns (a coupon). */
export class FulfillmentDoneV1Payload {
  @IsString() @Length(1, 32) fulfillmentId!: string;
  @IsString() @Length(1, 32) orderId!: string;
  @IsString() @Length(1, 64) userId!: string;
  @IsIn(['COUPON']) type!: 'COUPON';
  @IsString() @Length(1, 64) couponCode!: string;
  /** Face value of the coupon, minor units. */
  @IsInt() @Min(0) @Max(1_000_000_000_000) couponValue!: number;
  @IsISO4217CurrencyCode() currency!: string;
  @IsISO8601({ strict: true }) doneAt!: string;
}

export const FulfillmentDoneV1 = defineEvent({
  eventType: 'FulfillmentDone',
  aggregateType: 'Fulfillment',
  schemaVersion: 1,
  payload: FulfillmentDoneV1Payload,
});
