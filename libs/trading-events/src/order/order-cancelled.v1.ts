import { defineEvent } from '@outbox-inbox/messaging';
import { EntityId, Reason, Reference, Timestamp } from '../payload-fields';

export class OrderCancelledV1Payload {
  @EntityId() orderId!: string;
  @Reference() userId!: string;
  @Reason() reason!: string;
  @Timestamp() cancelledAt!: string;
}

export const OrderCancelledV1 = defineEvent({
  eventType: 'OrderCancelled',
  aggregateType: 'Order',
  schemaVersion: 1,
  payload: OrderCancelledV1Payload,
});
