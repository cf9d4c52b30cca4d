import { createEnvelope } from '@outbox-inbox/messaging';
import {
  FulfillmentDoneV1,
  FulfillmentRevertedV1,
  OrderCancelledV1,
  OrderPaidV1,
} from '@app/trading-events';
import { CHART_OF_ACCOUNTS } from './chart-of-accounts';
import { Journal } from './journal';
import {
  fulfillmentDonePosting,
  fulfillmentRevertedPosting,
  orderCancelledPosting,
  orderPaidPosting,
  Posting,
} from './postings';

const paidAt = '2026-12-01T10:00:00.000Z';

const orderPaid = createEnvelope(OrderPaidV1, {
  aggregateId: '42',
  aggregateVersion: 4,
  payload: {
    orderId: '42',
    userId: 'u-1',
    payOrderId: 'pay-42',
    notifyId: 'n-1',
    amount: 1999,
    currency: 'EUR',
    paidAt,
  },
});

const orderCancelled = createEnvelope(OrderCancelledV1, {
  aggregateId: '42',
  aggregateVersion: 5,
  payload: { orderId: '42', userId: 'u-1', reason: 'customer', cancelledAt: paidAt },
});

const coupon = {
  fulfillmentId: '7',
  orderId: '42',
  couponCode: 'C-42',
  couponValue: 500,
  currency: 'EUR',
};

const fulfillmentDone = createEnvelope(FulfillmentDoneV1, {
  aggregateId: '7',
  aggregateVersion: 2,
  payload: { ...coupon, userId: 'u-1', type: 'COUPON' as const, doneAt: paidAt },
});

const fulfillmentReverted = createEnvelope(FulfillmentRevertedV1, {
  aggregateId: '7',
  aggregateVersion: 3,
  payload: { ...coupon, reason: 'order cancelled', revertedAt: paidAt },
});

function journalOf(posting: Posting): Journal {
  if (posting.action !== 'BOOK') throw new Error(`expected a journal, got ${posting.reason}`);
  return posting.journal;
}

/** Lines as "Dr 1100 1999" / "Cr 4000 1999", the way an accountant reads them. */
function entries(journal: Journal): string[] {
  return journal.lines.map((line) =>
    line.debit > 0
      ? `Dr ${line.accountCode} ${line.debit}`
      : `Cr ${line.accountCode} ${line.credit}`,
  );
}

describe('postings per event', () => {
  it('OrderPaid: debits payment clearing and credits sales revenue with the amount paid', () => {
    const journal = journalOf(orderPaidPosting(orderPaid));
    expect(entries(journal)).toEqual(['Dr 1100 1999', 'Cr 4000 1999']);
    expect(journal).toMatchObject({ kind: 'PAYMENT', currency: 'EUR', total: 1999 });
    expect(journal.source).toMatchObject({ eventKey: 'OrderPaid:42:4', orderId: '42' });
  });

  it('FulfillmentDone: debits coupon expense and credits coupon liability with its value', () => {
    const journal = journalOf(fulfillmentDonePosting(fulfillmentDone));
    expect(entries(journal)).toEqual(['Dr 5100 500', 'Cr 2200 500']);
    expect(journal).toMatchObject({ kind: 'COUPON_GRANT', total: 500 });
    expect(journal.source).toMatchObject({ eventKey: 'FulfillmentDone:7:2', orderId: '42' });
  });

  it('FulfillmentReverted: reverses the grant exactly', () => {
    const grant = journalOf(fulfillmentDonePosting(fulfillmentDone));
    const revoke = journalOf(fulfillmentRevertedPosting(fulfillmentReverted));
    expect(entries(revoke)).toEqual(['Dr 2200 500', 'Cr 5100 500']);
    const net = new Map<string, number>();
    for (const change of [...grant.balanceChanges(), ...revoke.balanceChanges()]) {
      net.set(change.accountCode, (net.get(change.accountCode) ?? 0) + change.delta);
    }
    expect([...net.values()]).toEqual([0, 0]);
  });

  it('OrderCancelled after payment: moves the paid amount from sales revenue to refunds payable', () => {
    const journal = journalOf(
      orderCancelledPosting(orderCancelled, { orderId: '42', amount: 1999, currency: 'EUR' }),
    );
    expect(entries(journal)).toEqual(['Dr 4000 1999', 'Cr 2300 1999']);
    expect(journal).toMatchObject({ kind: 'REFUND', currency: 'EUR' });
  });

  it('OrderCancelled of an order never paid books nothing', () => {
    expect(orderCancelledPosting(orderCancelled, undefined)).toEqual({
      action: 'SKIP',
      reason: 'order was never paid',
    });
  });

  it('a coupon of value 0 books nothing, granted or revoked', () => {
    const free = { ...fulfillmentDone, payload: { ...fulfillmentDone.payload, couponValue: 0 } };
    const freeRevert = {
      ...fulfillmentReverted,
      payload: { ...fulfillmentReverted.payload, couponValue: 0 },
    };
    expect(fulfillmentDonePosting(free).action).toBe('SKIP');
    expect(fulfillmentRevertedPosting(freeRevert).action).toBe('SKIP');
  });

  it('posts only to accounts of the chart', () => {
    const codes = new Set(CHART_OF_ACCOUNTS.map((a) => a.code));
    const journals = [
      journalOf(orderPaidPosting(orderPaid)),
      journalOf(fulfillmentDonePosting(fulfillmentDone)),
      journalOf(fulfillmentRevertedPosting(fulfillmentReverted)),
      journalOf(
        orderCancelledPosting(orderCancelled, { orderId: '42', amount: 1, currency: 'EUR' }),
      ),
    ];
    for (const line of journals.flatMap((j) => j.lines)) expect(codes).toContain(line.accountCode);
  });
});
