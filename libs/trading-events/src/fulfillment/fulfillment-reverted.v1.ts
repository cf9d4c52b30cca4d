import { defineEvent } from '@outbox-inbox/messaging';
import { Currency, EntityId, MinorUnits, Reason, Reference, Timestamp } from '../payload-fields';

/** A done fulfillment was compensated: the coupon was revoked. */
export class FulfillmentRevertedV1Payload {
  @EntityId() fulfillmentId!: string;
  @EntityId() orderId!: string;
  @Reference() couponCode!: string;
  @MinorUnits(0) couponValue!: number;
  @Currency() currency!: string;
  @Reason() reason!: string;
  @Timestamp() revertedAt!: string;
}

export const FulfillmentRevertedV1 = defineEvent({
  eventType: 'FulfillmentReverted',
  aggregateType: 'Fulfillment',
  schemaVersion: 1,
  payload: FulfillmentRevertedV1Payload,
});
