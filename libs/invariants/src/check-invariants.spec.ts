import { healthySnapshot } from '../test/healthy-snapshot';
import { evaluateInvariants } from './check-invariants';
import { formatInvariantReport } from './format-report';
import { InvariantRule } from './invariant-report';
import { Snapshot } from './snapshot';

/** Plants one fault in a healthy snapshot and returns the rules the checker says are broken. */
function rulesBrokenBy(plant: (s: Snapshot) => void, quiescent = true) {
  const snapshot = healthySnapshot();
  plant(snapshot);
  const report = evaluateInvariants(snapshot, { quiescent });
  return {
    rules: [...new Set(report.violations.map((v) => v.rule))].sort(),
    ids: report.violations.flatMap((v) => v.ids),
    report,
  };
}

const consumer = (s: Snapshot, name: string) => s.consumers.find((c) => c.name === name)!;

describe('evaluateInvariants', () => {
  it('finds nothing wrong in a healthy deployment, at rest or not', () => {
    for (const quiescent of [true, false]) {
      const report = evaluateInvariants(healthySnapshot(), { quiescent });
      expect(report.violations).toEqual([]);
      expect(report.ok).toBe(true);
    }
    expect(evaluateInvariants(healthySnapshot()).observations).toMatchObject({
      paidOrders: 2,
      duplicateDeliveries: 0,
    });
  });

  it('counts duplicate deliveries apart from effects: extra copies in a topic are no violation', () => {
    const { rules, report } = rulesBrokenBy((s) => {
      s.topicMessages.push({ ...s.topicMessages[2], offset: 99n });
      s.topicMessages.push({ ...s.topicMessages[2], offset: 100n });
      for (const c of s.consumers) c.committed['trading.order.events:0'] = 101n;
    });
    expect(rules).toEqual([]);
    expect(report.observations.duplicateDeliveries).toBe(2);
    expect(report.observations.duplicatedEventKeys).toEqual(['OrderPaid:1:3 x3']);
  });

  const cases: Array<[string, InvariantRule | InvariantRule[], (s: Snapshot) => void, string]> = [
    [
      'a paid order without its OrderPaid row',
      'paid-order-has-one-order-paid-event',
      (s) => {
        s.outbox['order-service'] = s.outbox['order-service'].filter(
          (r) => r.eventKey !== 'OrderPaid:2:3',
        );
      },
      'order 2: 0 rows',
    ],
    [
      'an OrderPaid row of an order never paid',
      [
        'order-paid-event-has-paid-order',
        'fulfillment-has-paid-order',
        'payment-journal-matches-order',
      ],
      (s) => {
        s.orders[1].paidAt = null;
      },
      'outbox 6 (order 2)',
    ],
    [
      'a SENT row whose event is in no topic',
      'sent-event-is-in-topic',
      (s) => {
        s.outbox['order-service'].push({
          ...s.outbox['order-service'][0],
          id: '77',
          eventKey: 'OrderCreated:9:1',
        });
      },
      'order-service outbox 77 OrderCreated:9:1',
    ],
    [
      'an applied OrderPaid without its fulfillment',
      'paid-order-has-one-fulfillment',
      (s) => {
        s.fulfillments = s.fulfillments.filter((f) => f.orderId !== '2');
        s.coupons = s.coupons.filter((c) => c.orderId !== '2');
      },
      'OrderPaid:2:3: 0 fulfillments',
    ],
    [
      'a fulfillment of an unpaid order',
      ['fulfillment-has-paid-order', 'nothing-in-flight'],
      (s) => {
        s.fulfillments.push({ ...s.fulfillments[0], orderId: '3', status: 'INIT' });
      },
      'fulfillment of order 3 (INIT)',
    ],
    [
      'a DONE fulfillment whose coupon is missing',
      'done-fulfillment-has-one-coupon',
      (s) => {
        s.coupons = s.coupons.filter((c) => c.orderId !== '1');
      },
      'order 1: 0 coupons for OrderPaid:1:3',
    ],
    [
      'two grants under one idempotency key',
      ['one-grant-per-idempotency-key', 'done-fulfillment-has-one-coupon'],
      (s) => {
        s.coupons.push({ ...s.coupons[0], couponCode: 'C1bis' });
      },
      'OrderPaid:1:3: C1, C1bis',
    ],
    [
      'a second payment journal for one order',
      'paid-order-has-one-payment-journal',
      (s) => {
        s.journals.push({ ...s.journals[0], id: 'P1bis' });
        s.accounts[0].balance += 1000;
        s.accounts[1].balance -= 1000;
      },
      'order 1: 2 payment journals',
    ],
    [
      'a payment journal of another amount',
      'payment-journal-matches-order',
      (s) => {
        s.orders[0].amount = 999;
      },
      'journal P1 (order 1): booked 1000 EUR, order 999 EUR',
    ],
    [
      'an applied FulfillmentDone without its coupon journal',
      'coupon-grant-has-one-journal',
      (s) => {
        s.journals = s.journals.filter((j) => j.id !== 'G2');
        s.accounts.find((a) => a.code === '6100')!.balance = 50;
        s.accounts.find((a) => a.code === '2100')!.balance = -50;
      },
      'FulfillmentDone:12:1: 0 coupon journals',
    ],
    [
      'an unbalanced journal',
      'journal-is-balanced',
      (s) => {
        s.journals[1].lines[1].credit = 1999;
        s.accounts.find((a) => a.code === '4000')!.balance = -2999;
      },
      'journal P2 (PAYMENT, order 2)',
    ],
    [
      'a balance that differs from its lines',
      'balance-equals-journal-lines',
      (s) => {
        s.accounts[0].balance += 1;
      },
      '1100 EUR: balance 3001, lines 3000',
    ],
    [
      'a version applied past a gap',
      'versions-applied-in-order',
      (s) => {
        const c = consumer(s, 'fulfillment-service');
        c.inbox = c.inbox.filter((r) => r.eventKey !== 'OrderPaymentStarted:1:2');
        c.parked.push({
          aggregateType: 'Order',
          aggregateId: '1',
          aggregateVersion: 2,
          eventKey: 'OrderPaymentStarted:1:2',
        });
      },
      'Order:1: version 2 skipped (last applied 3)',
    ],
    [
      'an event committed past with no trace',
      'every-event-accounted-for',
      (s) => {
        const c = consumer(s, 'accounting-service');
        c.inbox = c.inbox.filter((r) => r.eventKey !== 'OrderCreated:3:1');
        c.gates = c.gates.filter((g) => g.aggregateId !== '3');
      },
      'accounting-service OrderCreated:3:1',
    ],
    [
      'an outbox row still unsent at rest',
      'nothing-in-flight',
      (s) => {
        s.outbox['fulfillment-service'].push({
          ...s.outbox['fulfillment-service'][0],
          id: '9',
          eventKey: 'FulfillmentDone:19:1',
          status: 'NEW',
        });
      },
      'fulfillment-service outbox 9 NEW',
    ],
  ];

  it.each(cases)('reports %s, with its ids', (_title, rule, plant, id) => {
    const { rules, ids, report } = rulesBrokenBy(plant);
    // One fault may break several promises at once; each case names all it breaks.
    expect(rules).toEqual([rule].flat().sort());
    expect(ids).toContain(id);
    expect(report.ok).toBe(false);
    for (const broken of [rule].flat()) expect(formatInvariantReport(report)).toContain(broken);
  });

  it('accounts for parked, dead-lettered and not yet consumed events without a violation', () => {
    const { rules, report } = rulesBrokenBy((s) => {
      const c = consumer(s, 'accounting-service');
      // Parked: version 3 of order 2 waits for a version 2 that has not come yet.
      c.inbox = c.inbox.map((r) =>
        r.eventKey === 'OrderPaid:2:3' ? { ...r, outcome: 'parked' } : r,
      );
      c.inbox = c.inbox.filter((r) => r.eventKey !== 'OrderPaymentStarted:2:2');
      const late = s.topicMessages.find((m) => m.eventKey === 'OrderPaymentStarted:2:2')!;
      late.offset = 50n;
      c.gates = c.gates.map((g) =>
        g.aggregateId === '2' && g.aggregateType === 'Order'
          ? { ...g, lastVersion: 1, parkedCount: 1 }
          : g,
      );
      c.parked.push({
        aggregateType: 'Order',
        aggregateId: '2',
        aggregateVersion: 3,
        eventKey: 'OrderPaid:2:3',
      });
      s.journals = s.journals.filter((j) => j.id !== 'P2');
      s.accounts[0].balance = 1000;
      s.accounts[1].balance = -1000;
      // Dead-lettered: OrderCreated of order 3.
      c.inbox = c.inbox.filter((r) => r.eventKey !== 'OrderCreated:3:1');
      c.gates = c.gates.filter((g) => g.aggregateId !== '3');
      c.deadLetters.push({
        offset: '0',
        eventKey: 'OrderCreated:3:1',
        sourceTopic: 'trading.order.events',
        sourcePartition: 0,
        sourceOffset: '6',
        errorCode: 'HANDLER_FAILED',
      });
    }, false);
    expect(rules).toEqual([]);
    expect(report.observations.parkedEvents).toEqual(['accounting-service OrderPaid:2:3']);
    expect(report.observations.deadLetteredEvents).toEqual(['accounting-service OrderCreated:3:1']);
    expect(report.observations.inFlightEvents).toEqual([
      'accounting-service OrderPaymentStarted:2:2',
    ]);
  });
});
