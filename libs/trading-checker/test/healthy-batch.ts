import { ConsumerFacts, FulfillmentFacts, OrderBatch } from '../src';

const at = new Date('2026-12-03T08:00:00Z');
const ORDER_EVENTS = ['OrderCreated', 'OrderPaymentStarted', 'OrderPaid'];

/**
 * A page of three orders where every promise holds: 1 and 2 paid (created v1, paying v2, paid
 * v3), fulfilled (fulfillments 11 and 12, coupons C1 and C2) and booked; 3 cancelled while
 * paying (v3), with fulfillment's CANCELLED marker 13. Both consumers took every event in.
 */
export function healthyBatch(): OrderBatch {
  const orders = ['1', '2', '3'].map((id) => ({
    id,
    status: id === '3' ? 'CANCELLED' : 'PAID',
    amount: 1000,
    currency: 'EUR',
    paidAt: id === '3' ? null : at,
    history: (id === '3' ? [...ORDER_EVENTS.slice(0, 2), 'OrderCancelled'] : ORDER_EVENTS).map(
      (eventType, i) => ({ version: i + 1, eventType }),
    ),
  }));
  const fulfillments: FulfillmentFacts[] = ['1', '2'].map((orderId) => ({
    id: `1${orderId}`,
    orderId,
    status: 'DONE',
    grantKey: `OrderPaid:${orderId}:3`,
    couponCode: `C${orderId}`,
    couponValue: 50,
    currency: 'EUR',
    eventVersion: 1,
    nextAttemptAt: null,
  }));
  fulfillments.push({
    ...fulfillments[0],
    id: '13',
    orderId: '3',
    status: 'CANCELLED',
    grantKey: '',
    couponCode: null,
    couponValue: 0,
    currency: 'XXX',
    eventVersion: 0,
  });
  const journals = ['1', '2'].flatMap((orderId) => [
    journal(`P${orderId}`, 'PAYMENT', orderId, `OrderPaid:${orderId}:3`, 1000),
    journal(`G${orderId}`, 'COUPON_GRANT', orderId, `FulfillmentDone:1${orderId}:1`, 50),
  ]);
  const keys = orders.flatMap((o) => o.history.map((e) => `${e.eventType}:${o.id}:${e.version}`));
  const consumer = (name: string, aggregateTypes: string[]): ConsumerFacts => ({
    name,
    aggregateTypes,
    pruned: false,
    gates: new Map<string, { lastVersion: number; parkedCount: number }>([
      ...orders.map((o) => [`Order:${o.id}`, { lastVersion: 3, parkedCount: 0 }] as const),
      ...(aggregateTypes.includes('Fulfillment') ? ['11', '12'] : []).map(
        (id) => [`Fulfillment:${id}`, { lastVersion: 1, parkedCount: 0 }] as const,
      ),
    ]),
    inbox: new Map<string, string>([
      ...keys.map((k) => [k, k.startsWith('OrderCreated') ? 'ignored' : 'applied'] as const),
      ...(aggregateTypes.includes('Fulfillment') ? ['11', '12'] : []).map(
        (id) => [`FulfillmentDone:${id}:1`, 'applied'] as const,
      ),
    ]),
    parked: [],
    skipped: new Set<string>(),
  });
  return {
    orders,
    fulfillments,
    coupons: ['1', '2'].map((orderId) => ({
      couponCode: `C${orderId}`,
      idempotencyKey: `OrderPaid:${orderId}:3`,
      orderId,
      status: 'GRANTED',
    })),
    journals,
    outbox: [],
    consumers: [
      consumer('fulfillment-service', ['Order']),
      consumer('accounting-service', ['Order', 'Fulfillment']),
    ],
  };
}

function journal(
  id: string,
  kind: string,
  orderId: string,
  sourceEventKey: string,
  amount: number,
) {
  return { id, kind, orderId, sourceEventKey, currency: 'EUR', totalDebit: amount };
}
