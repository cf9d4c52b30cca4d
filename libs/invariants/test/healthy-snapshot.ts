import { Snapshot, TopicMessage } from '../src';

const at = new Date('2026-12-03T08:00:00Z');

function message(
  topic: string,
  offset: number,
  eventType: string,
  aggregateType: string,
  aggregateId: string,
  version: number,
  payload: Record<string, unknown> = {},
): TopicMessage {
  return {
    topic,
    partition: 0,
    offset: BigInt(offset),
    timestamp: at,
    eventKey: `${eventType}:${aggregateId}:${version}`,
    eventType,
    aggregateType,
    aggregateId,
    aggregateVersion: version,
    payload,
  };
}

/**
 * A small deployment where every promise holds: orders 1 and 2 paid (created v1, paying v2,
 * paid v3), fulfilled (fulfillments 11 and 12, coupons C1 and C2) and booked; order 3 only
 * created. Both consumers have taken every event in; everything was committed past.
 */
export function healthySnapshot(): Snapshot {
  const orderEvents = [1, 2, 3].flatMap((id) =>
    (id === 3 ? ['OrderCreated'] : ['OrderCreated', 'OrderPaymentStarted', 'OrderPaid']).map(
      (type, i) => ({ type, id: String(id), version: i + 1 }),
    ),
  );
  const orderMessages = orderEvents.map((e, i) =>
    message('trading.order.events', i, e.type, 'Order', e.id, e.version, { orderId: e.id }),
  );
  const doneMessages = ['1', '2'].map((orderId, i) =>
    message('trading.fulfillment.events', i, 'FulfillmentDone', 'Fulfillment', `1${orderId}`, 1, {
      orderId,
      couponValue: 50,
    }),
  );
  const outboxRow = (e: TopicMessage, i: number) => ({
    id: String(i + 1),
    eventKey: e.eventKey!,
    eventType: e.eventType!,
    aggregateType: e.aggregateType!,
    aggregateId: e.aggregateId!,
    aggregateVersion: e.aggregateVersion!,
    status: 'SENT',
    retryCount: 0,
    lastError: null,
    createdAt: at,
  });
  const inboxOf = (messages: TopicMessage[], applies: string[]) =>
    messages.map((m, i) => ({
      id: String(i + 1),
      eventKey: m.eventKey!,
      eventType: m.eventType!,
      outcome: applies.includes(m.eventType!) ? 'applied' : 'ignored',
    }));
  const gatesOf = (messages: TopicMessage[]) => {
    const last = new Map<string, { aggregateType: string; aggregateId: string; v: number }>();
    for (const m of messages)
      last.set(`${m.aggregateType}:${m.aggregateId}`, {
        aggregateType: m.aggregateType!,
        aggregateId: m.aggregateId!,
        v: m.aggregateVersion!,
      });
    return [...last.values()].map((g) => ({
      aggregateType: g.aggregateType,
      aggregateId: g.aggregateId,
      lastVersion: g.v,
      parkedCount: 0,
    }));
  };
  const line = (accountCode: string, debit: number, credit: number) => ({
    accountCode,
    currency: 'EUR',
    debit,
    credit,
  });
  return {
    orders: [
      { id: '1', status: 'PAID', amount: 1000, currency: 'EUR', paidAt: at, createdAt: at },
      { id: '2', status: 'PAID', amount: 2000, currency: 'EUR', paidAt: at, createdAt: at },
      { id: '3', status: 'CREATED', amount: 3000, currency: 'EUR', paidAt: null, createdAt: at },
    ],
    outbox: {
      'order-service': orderMessages.map(outboxRow),
      'fulfillment-service': doneMessages.map(outboxRow),
    },
    fulfillments: ['1', '2'].map((orderId) => ({
      orderId,
      type: 'COUPON',
      status: 'DONE',
      grantKey: `OrderPaid:${orderId}:3`,
      couponCode: `C${orderId}`,
      couponValue: 50,
    })),
    coupons: ['1', '2'].map((orderId) => ({
      couponCode: `C${orderId}`,
      idempotencyKey: `OrderPaid:${orderId}:3`,
      orderId,
      status: 'GRANTED',
    })),
    journals: [
      ...['1', '2'].map((orderId) => ({
        id: `P${orderId}`,
        kind: 'PAYMENT',
        orderId,
        sourceEventKey: `OrderPaid:${orderId}:3`,
        currency: 'EUR',
        totalDebit: Number(orderId) * 1000,
        totalCredit: Number(orderId) * 1000,
        lines: [line('1100', Number(orderId) * 1000, 0), line('4000', 0, Number(orderId) * 1000)],
      })),
      ...['1', '2'].map((orderId) => ({
        id: `G${orderId}`,
        kind: 'COUPON_GRANT',
        orderId,
        sourceEventKey: `FulfillmentDone:1${orderId}:1`,
        currency: 'EUR',
        totalDebit: 50,
        totalCredit: 50,
        lines: [line('6100', 50, 0), line('2100', 0, 50)],
      })),
    ],
    accounts: [
      { code: '1100', currency: 'EUR', balance: 3000 },
      { code: '4000', currency: 'EUR', balance: -3000 },
      { code: '6100', currency: 'EUR', balance: 100 },
      { code: '2100', currency: 'EUR', balance: -100 },
    ],
    consumers: [
      {
        name: 'fulfillment-service',
        topics: ['trading.order.events'],
        gateStart: 'version-1',
        inbox: inboxOf(orderMessages, ['OrderPaid']),
        gates: gatesOf(orderMessages),
        parked: [],
        deadLetters: [],
        committed: { 'trading.order.events:0': BigInt(orderMessages.length) },
      },
      {
        name: 'accounting-service',
        topics: ['trading.order.events', 'trading.fulfillment.events'],
        gateStart: 'version-1',
        inbox: inboxOf([...orderMessages, ...doneMessages], ['OrderPaid', 'FulfillmentDone']),
        gates: gatesOf([...orderMessages, ...doneMessages]),
        parked: [],
        deadLetters: [],
        committed: {
          'trading.order.events:0': BigInt(orderMessages.length),
          'trading.fulfillment.events:0': BigInt(doneMessages.length),
        },
      },
    ],
    topicMessages: [...orderMessages, ...doneMessages],
  };
}
