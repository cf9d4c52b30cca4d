import { defineEvent } from '@outbox-inbox/messaging';
import { Currency, EntityId, MinorUnits, Reference, Timestamp } from '../payload-fields';

/** The order was paid: the fact fulfillment and accounting act on. */
export class OrderPaidV1Payload {
  @EntityId() orderId!: string;
  @Reference() userId!: string;
  /** The payment provider's id of this payment. */
  @Reference() payOrderId!: string;
  /** The provider notification that proved the payment. */
  @Reference() notifyId!: string;
  @MinorUnits() amount!: number;
  @Currency() currency!: string;
  @Timestamp() paidAt!: string;
}

export const OrderPaidV1 = defineEvent({
  eventType: 'OrderPaid',
  aggregateType: 'Order',
  schemaVersion: 1,
  payload: OrderPaidV1Payload,
});
