import { defineEvent } from '@outbox-inbox/messaging';
import { Currency, EntityId, MinorUnits, Reference, Timestamp } from '../payload-fields';

/**
 * The order moved to PAYING with a payment id. Every order transition writes an event, so
 * an order's event versions are gapless (1, 2, 3, …) and consumers can gate on them.
 */
export class OrderPaymentStartedV1Payload {
  @EntityId() orderId!: string;
  @Reference() payOrderId!: string;
  @MinorUnits() amount!: number;
  @Currency() currency!: string;
  @Timestamp() startedAt!: string;
}

export const OrderPaymentStartedV1 = defineEvent({
  eventType: 'OrderPaymentStarted',
  aggregateType: 'Order',
  schemaVersion: 1,
  payload: OrderPaymentStartedV1Payload,
});
