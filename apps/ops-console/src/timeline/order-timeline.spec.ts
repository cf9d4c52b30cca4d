import { PayCallbackView } from './peer-views';
import { OrderTimeline, timelineEvents } from './order-timeline';

const outboxRow = (over: Partial<OrderTimeline['sections']['order']['outbox'][number]>) => ({
  id: '1',
  eventKey: 'OrderCreated:7:1',
  eventType: 'OrderCreated',
  aggregateVersion: 1,
  status: 'SENT',
  retryCount: 0,
  lastError: null,
  createdAt: '2026-12-01T10:00:00.010Z',
  updatedAt: '2026-12-01T10:00:00.050Z',
  sentAt: '2026-12-01T10:00:00.050Z',
  ...over,
});

const callback = (over: Partial<PayCallbackView>): PayCallbackView => ({
  notifyId: 'n-1',
  payOrderId: 'pay_1',
  amount: 1999,
  currency: 'EUR',
  notifiedStatus: 'SUCCESS',
  verdict: 'accepted',
  answerStatus: 200,
  detail: 'order PAID',
  signedAt: '2026-12-01T10:00:01.000Z',
  receivedAt: '2026-12-01T10:00:01.000Z',
  ...over,
});

function sections(): OrderTimeline['sections'] {
  return {
    order: {
      callbacks: [callback({})],
      transitions: [
        {
          version: 1,
          status: 'CREATED',
          eventType: 'OrderCreated',
          cause: null,
          occurredAt: '2026-12-01T10:00:00.010Z',
        },
      ],
      outbox: [
        outboxRow({}),
        outboxRow({
          id: '2',
          eventKey: 'OrderPaid:7:3',
          eventType: 'OrderPaid',
          aggregateVersion: 3,
          status: 'DEAD',
          retryCount: 8,
          lastError: 'broker down',
          createdAt: '2026-12-01T10:00:01.000Z',
          updatedAt: '2026-12-01T10:00:09.000Z',
          sentAt: null,
        }),
      ],
    },
    fulfillment: {
      status: 'ok',
      data: {
        orderId: '7',
        fulfillment: null,
        transitions: [],
        outbox: [],
        inbox: [
          {
            consumer: 'fulfillment-service',
            eventKey: 'OrderCreated:7:1',
            eventType: 'OrderCreated',
            outcome: 'ignored',
            processedAt: '2026-12-01T10:00:00.060Z',
            duplicateCount: 2,
            lastDuplicateAt: '2026-12-01T10:00:05.000Z',
          },
        ],
      },
    },
    coupon: { status: 'ok', data: null },
    accounting: { status: 'unavailable', error: 'http://accounting: ECONNREFUSED' },
  };
}

describe('timelineEvents', () => {
  it('merges every section into one time-ordered list, a DEAD row and duplicates included', () => {
    expect(
      timelineEvents(sections()).map((e) => [e.at.slice(17), e.lane, e.kind, e.title]),
    ).toEqual([
      ['00.010Z', 'order-service', 'transition', 'order CREATED'],
      ['00.010Z', 'order-service', 'outbox', 'outbox OrderCreated v1 written'],
      ['00.050Z', 'order-service', 'published', 'OrderCreated v1 published'],
      ['00.060Z', 'fulfillment-service', 'inbox', 'OrderCreated received: ignored'],
      ['01.000Z', 'order-service', 'callback', 'pay callback accepted: SUCCESS'],
      ['01.000Z', 'order-service', 'outbox', 'outbox OrderPaid v3 written'],
      ['05.000Z', 'fulfillment-service', 'duplicate', '2 duplicates of OrderCreated absorbed'],
      ['09.000Z', 'order-service', 'dead', 'OrderPaid v3 DEAD'],
    ]);
  });

  it('shows a version skipped on purpose, with its reason', () => {
    const s = sections();
    if (s.fulfillment.status !== 'ok') throw new Error('fixture');
    s.fulfillment.data.inbox.push({
      consumer: 'fulfillment-service',
      eventKey: 'Order:7:2',
      eventType: 'Order v2',
      outcome: 'skipped',
      reason: 'OrderPaymentStarted v2 was lost with a restored backup (by ops-anna)',
      processedAt: '2026-12-01T10:00:07.000Z',
      duplicateCount: 0,
      lastDuplicateAt: null,
    });
    expect(timelineEvents(s).filter((e) => e.kind === 'skipped')).toEqual([
      {
        at: '2026-12-01T10:00:07.000Z',
        lane: 'fulfillment-service',
        kind: 'skipped',
        title: 'Order v2 skipped by fulfillment-service',
        detail: 'OrderPaymentStarted v2 was lost with a restored backup (by ops-anna)',
      },
    ]);
  });

  it('shows the verified pay callbacks in the order-service lane: accepted, duplicate, late', () => {
    const s = sections();
    s.order.callbacks.push(
      callback({
        notifyId: 'n-2',
        verdict: 'duplicate',
        detail: 'a repeat, order already PAID; nothing changed',
        signedAt: '2026-12-01T10:00:02.000Z',
        receivedAt: '2026-12-01T10:00:02.500Z',
      }),
      callback({
        notifyId: 'n-3',
        verdict: 'late',
        answerStatus: 401,
        detail: 'signed more than 300 s away from our clock; nothing changed',
        signedAt: '2026-12-01T09:50:03.000Z',
        receivedAt: '2026-12-01T10:00:03.000Z',
      }),
    );
    expect(
      timelineEvents(s)
        .filter((e) => e.kind === 'callback')
        .map((e) => [e.at.slice(17), e.lane, e.title, e.detail]),
    ).toEqual([
      [
        '01.000Z',
        'order-service',
        'pay callback accepted: SUCCESS',
        'notifyId n-1, payment pay_1, SUCCESS 1999 EUR (minor units); signed 0 s before it arrived; answered 200 (order PAID)',
      ],
      [
        '02.500Z',
        'order-service',
        'pay callback duplicate (200)',
        'notifyId n-2, payment pay_1, SUCCESS 1999 EUR (minor units); signed 1 s before it arrived; answered 200 (a repeat, order already PAID; nothing changed)',
      ],
      [
        '03.000Z',
        'order-service',
        'pay callback late (401)',
        'notifyId n-3, payment pay_1, SUCCESS 1999 EUR (minor units); signed 600 s before it arrived; answered 401 (signed more than 300 s away from our clock; nothing changed)',
      ],
    ]);
  });

  it('leaves out sections that were unavailable', () => {
    const s = sections();
    s.fulfillment = { status: 'unavailable', error: 'timeout' };
    expect(timelineEvents(s).some((e) => e.lane === 'fulfillment-service')).toBe(false);
  });
});
