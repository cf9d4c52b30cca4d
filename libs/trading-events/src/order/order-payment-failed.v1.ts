import { defineEvent } from '@outbox-inbox/messaging';
import { EntityId, Reason, Reference, Timestamp } from '../payload-fields';

export class OrderPaymentFailedV1Payload {
  @EntityId() orderId!: string;
  @Reference() payOrderId!: string;
  @Reference() notifyId!: string;
  @Reason() reason!: string;
  @Timestamp() failedAt!: string;
}

export const OrderPaymentFailedV1 = defineEvent({
  eventType: 'OrderPaymentFailed',
  aggregateType: 'Order',
  schemaVersion: 1,
  payload: OrderPaymentFailedV1Payload,
});
