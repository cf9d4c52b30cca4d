import { IsIn } from 'class-validator';
import { defineEvent } from '@outbox-inbox/messaging';
import { Currency, EntityId, MinorUnits, Reference, Timestamp } from '../payload-fields';

/** Fulfillment granted what the paid order earns (a coupon). */
export class FulfillmentDoneV1Payload {
  @EntityId() fulfillmentId!: string;
  @EntityId() orderId!: string;
  @Reference() userId!: string;
  @IsIn(['COUPON']) type!: 'COUPON';
  @Reference() couponCode!: string;
  /** Face value of the coupon. */
  @MinorUnits(0) couponValue!: number;
  @Currency() currency!: string;
  @Timestamp() doneAt!: string;
}

export const FulfillmentDoneV1 = defineEvent({
  eventType: 'FulfillmentDone',
  aggregateType: 'Fulfillment',
  schemaVersion: 1,
  payload: FulfillmentDoneV1Payload,
});
