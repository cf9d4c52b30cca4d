import { eventKeyOf } from '@outbox-inbox/messaging';
import { FulfillmentFacts, fulfillmentEvents } from '../order-batch';
import { BatchRule } from './batch-rule';

/**
 * Orders ↔ their durable history (t_order_transition, written with every change and never
 * pruned): a paid order has exactly one OrderPaid, an unpaid one none. And every retained
 * outbox row is an event its aggregate recorded, with the same version and type.
 */
export const historyMatchesOrders: BatchRule = (batch, { findings }) => {
  for (const order of batch.orders) {
    if (order.history.length === 0) {
      findings.notCheckable(
        'paid-order-has-one-order-paid-event',
        'order older than its event history (t_order_transition)',
      );
      continue;
    }
    const paid = order.history.filter((e) => e.eventType === 'OrderPaid');
    if (order.paidAt !== null && paid.length !== 1)
      findings.violate(
        'paid-order-has-one-order-paid-event',
        `order ${order.id}: ${paid.length} OrderPaid events`,
      );
    if (order.paidAt === null)
      for (const e of paid)
        findings.violate(
          'order-paid-event-has-paid-order',
          `${eventKeyOf('OrderPaid', order.id, e.version)}: order ${order.id} is ${order.status}, never paid`,
        );
  }
};

export const outboxRowsMatchHistory: BatchRule = (batch, { findings }) => {
  const orders = new Map(batch.orders.map((o) => [o.id, o]));
  const fulfillments = new Map(batch.fulfillments.map((f) => [f.id, f]));
  for (const row of batch.outbox) {
    const recorded =
      row.aggregateType === 'Order'
        ? orders.get(row.aggregateId)?.history
        : fulfillmentEventsOf(fulfillments.get(row.aggregateId));
    if (recorded?.length === 0) {
      findings.notCheckable('outbox-row-matches-history', 'order older than its event history');
      continue;
    }
    const event = recorded?.find((e) => e.version === row.aggregateVersion);
    if (event?.eventType !== row.eventType)
      findings.violate(
        'outbox-row-matches-history',
        `${row.service} outbox ${row.id} ${row.eventKey}: ${
          event ? `version ${event.version} is ${event.eventType}` : 'no such event recorded'
        }`,
      );
    if (row.eventType === 'OrderPaid' && orders.get(row.aggregateId)?.paidAt === null)
      findings.violate(
        'order-paid-event-has-paid-order',
        `${row.service} outbox ${row.id} ${row.eventKey}: order never paid`,
      );
  }
};

const fulfillmentEventsOf = (f: FulfillmentFacts | undefined) =>
  f ? fulfillmentEvents(f) : undefined;
