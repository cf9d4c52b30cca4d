import { healthyBatch } from '../test/healthy-batch';
import { Findings } from './findings';
import { OrderBatch } from './order-batch';
import { checkOrderBatch } from './passes/order.pass';

/** Plants one fault in a healthy batch; returns the violations by rule and the counts skipped. */
function check(plant: (b: OrderBatch) => void = () => undefined, quiescent = true) {
  const batch = healthyBatch();
  plant(batch);
  const findings = new Findings();
  checkOrderBatch(batch, { findings, quiescent });
  const report = findings.report();
  return {
    violations: Object.fromEntries(report.violations.map((v) => [v.rule, v.ids])),
    notCheckable: report.notCheckable,
  };
}

describe('the order rules', () => {
  it('find nothing wrong in a healthy batch, CANCELLED marker included, at rest or not', () => {
    expect(check(undefined, true)).toEqual({ violations: {}, notCheckable: [] });
    expect(check(undefined, false)).toEqual({ violations: {}, notCheckable: [] });
  });

  it('report a refund booked for an order that stayed paid (a stale OrderCancelled)', () => {
    const { violations } = check((b) => {
      b.journals.push({
        id: 'R1',
        kind: 'REFUND',
        orderId: '1',
        sourceEventKey: 'OrderCancelled:1:2',
        currency: 'EUR',
        totalDebit: 1000,
      });
    });
    expect(violations).toEqual({
      'refund-matches-cancelled-payment': [
        'journal R1 (REFUND, order 1, from OrderCancelled:1:2): no event owes it',
      ],
    });
  });

  it('accept a refund, a revoked coupon and a reversal of an order cancelled after payment', () => {
    const { violations } = check((b) => {
      b.orders[0].status = 'CANCELLED';
      b.orders[0].history.push({ version: 4, eventType: 'OrderCancelled' });
      Object.assign(b.fulfillments[0], { status: 'REVERTED', eventVersion: 2 });
      b.coupons[0].status = 'REVOKED';
      b.journals.push(
        { ...b.journals[0], id: 'R1', kind: 'REFUND', sourceEventKey: 'OrderCancelled:1:4' },
        {
          ...b.journals[1],
          id: 'V1',
          kind: 'COUPON_REVOKE',
          sourceEventKey: 'FulfillmentReverted:11:2',
        },
      );
      for (const c of b.consumers) c.gates.set('Order:1', { lastVersion: 4, parkedCount: 0 });
      for (const c of b.consumers) c.inbox.set('OrderCancelled:1:4', 'applied');
      const ledger = b.consumers[1];
      ledger.gates.set('Fulfillment:11', { lastVersion: 2, parkedCount: 0 });
      ledger.inbox.set('FulfillmentReverted:11:2', 'applied');
    });
    expect(violations).toEqual({});
  });

  it('report a missing refund once the ledger passed the cancel', () => {
    const { violations } = check((b) => {
      b.orders[0].status = 'CANCELLED';
      b.orders[0].history.push({ version: 4, eventType: 'OrderCancelled' });
      b.consumers[1].gates.set('Order:1', { lastVersion: 4, parkedCount: 0 });
      b.consumers[1].inbox.set('OrderCancelled:1:4', 'applied');
    });
    expect(violations['refund-matches-cancelled-payment']).toEqual([
      'OrderCancelled:1:4: 0 REFUND journals',
    ]);
  });

  it('report a CANCELLED marker of an order that is not cancelled', () => {
    const { violations } = check((b) => {
      b.fulfillments[2].orderId = '2';
    });
    expect(violations['fulfillment-has-paid-order']).toEqual([
      'fulfillment 13 of order 2 (CANCELLED): cancellation marker, order PAID',
    ]);
  });

  it('count versions below a pruned inbox as not checkable, and report a gap above them', () => {
    const pruned = check((b) => {
      for (const c of b.consumers) {
        c.pruned = true;
        c.inbox.delete('OrderCreated:1:1');
        c.inbox.delete('OrderPaymentStarted:1:2');
      }
    });
    expect(pruned.violations).toEqual({});
    expect(pruned.notCheckable).toEqual([
      { rule: 'versions-applied-in-order', count: 4, reason: expect.any(String) },
    ]);
    const gap = check((b) => {
      for (const c of b.consumers) {
        c.pruned = true;
        c.inbox.delete('OrderPaymentStarted:1:2');
      }
    });
    expect(gap.violations['versions-applied-in-order']).toEqual([
      'fulfillment-service Order:1: version 2 missing (last applied 3)',
      'accounting-service Order:1: version 2 missing (last applied 3)',
    ]);
  });

  it('report the first versions missing from an inbox that was never pruned: no gate starts later than 1', () => {
    const { violations, notCheckable } = check((b) => {
      for (const c of b.consumers) {
        c.inbox.delete('OrderCreated:1:1');
        c.inbox.delete('OrderPaymentStarted:1:2');
      }
    });
    expect(violations).toEqual({
      'versions-applied-in-order': [
        'fulfillment-service Order:1: version 1 missing (last applied 3)',
        'accounting-service Order:1: version 1 missing (last applied 3)',
      ],
    });
    expect(notCheckable).toEqual([]);
  });

  it('accept a version an operator skipped on purpose, and report the same gap left unskipped', () => {
    const gapAt = (skippedBy: string[]) =>
      check((b) => {
        for (const c of b.consumers) {
          c.inbox.delete('OrderPaymentStarted:1:2');
          if (skippedBy.includes(c.name)) c.skipped.add('Order:1@2');
        }
      });
    expect(gapAt(['fulfillment-service', 'accounting-service']).violations).toEqual({});
    expect(gapAt(['fulfillment-service']).violations).toEqual({
      'versions-applied-in-order': [
        'accounting-service Order:1: version 2 missing (last applied 3)',
      ],
    });
  });
});
