import { defineEvent } from '@outbox-inbox/messaging';
import { Currency, EntityId, MinorUnits, Reference, Timestamp } from '../payload-fields';

export class OrderCreatedV1Payload {
  @EntityId() orderId!: string;
  @Reference() userId!: string;
  @MinorUnits() amount!: number;
  @Currency() currency!: string;
  @Timestamp() createdAt!: string;
}

export const OrderCreatedV1 = defineEvent({
  eventType: 'OrderCreated',
  aggregateType: 'Order',
  schemaVersion: 1,
  payload: OrderCreatedV1Payload,
});
