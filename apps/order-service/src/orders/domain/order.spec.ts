import {
  cancelOrder,
  newOrder,
  Order,
  OrderStatus,
  OrderTransition,
  orderCreatedEvent,
  PaymentNotice,
  settlePayment,
  startPayment,
} from './order';

const t0 = new Date('2026-12-01T10:00:00.000Z');
const t1 = new Date('2026-12-01T10:05:00.000Z');

function created(): Order {
  return { ...newOrder({ userId: 'u-1', amount: 1999, currency: 'EUR' }, t0), id: '42' };
}

function inState(status: OrderStatus): Order {
  const base = created();
  const payOrderId = status === 'CREATED' ? null : 'pay-1';
  return { ...base, status, payOrderId, version: 3 };
}

function notice(overrides: Partial<PaymentNotice> = {}): PaymentNotice {
  return {
    notifyId: 'n-1',
    payOrderId: 'pay-1',
    amount: 1999,
    currency: 'EUR',
    status: 'SUCCESS',
    paidAt: t1,
    ...overrides,
  };
}

function changed(transition: OrderTransition) {
  if (transition.kind !== 'changed') throw new Error(`expected changed, got ${transition.kind}`);
  return transition;
}

function rejectionCode(transition: OrderTransition): string | undefined {
  return transition.kind === 'rejected' ? transition.rejection.code : undefined;
}

const ALL: OrderStatus[] = ['CREATED', 'PAYING', 'PAID', 'CANCELLED', 'PAYMENT_FAILED'];

describe('Order', () => {
  describe('when it is created', () => {
    it('starts in CREATED at version 1, and its OrderCreated event describes it', () => {
      const order = created();
      expect(order).toMatchObject({ status: 'CREATED', version: 1, payOrderId: null });
      expect(orderCreatedEvent(order)).toEqual({
        type: 'OrderCreated',
        payload: {
          orderId: '42',
          userId: 'u-1',
          amount: 1999,
          currency: 'EUR',
          createdAt: t0.toISOString(),
        },
      });
    });
  });

  describe('startPayment', () => {
    it.each<OrderStatus>(['CREATED', 'PAYMENT_FAILED'])(
      'moves %s to PAYING with the new payment id and records OrderPaymentStarted',
      (status) => {
        const order = inState(status);
        const result = changed(startPayment(order, 'pay-2', t1));
        expect(result.order).toMatchObject({
          status: 'PAYING',
          payOrderId: 'pay-2',
          version: order.version + 1,
          updatedAt: t1,
        });
        expect(result.event).toEqual({
          type: 'OrderPaymentStarted',
          payload: {
            orderId: '42',
            payOrderId: 'pay-2',
            amount: 1999,
            currency: 'EUR',
            startedAt: t1.toISOString(),
          },
        });
      },
    );

    it('keeps the payment already started when the order is PAYING', () => {
      const order = inState('PAYING');
      expect(startPayment(order, 'pay-2', t1)).toEqual({ kind: 'unchanged', order });
    });

    it.each<OrderStatus>(['PAID', 'CANCELLED'])('refuses to pay a %s order', (status) => {
      expect(startPayment(inState(status), 'pay-2', t1)).toEqual({
        kind: 'rejected',
        rejection: expect.objectContaining({
          code: 'ILLEGAL_TRANSITION',
          action: 'startPayment',
          from: status,
        }),
      });
    });
  });

  describe('settlePayment with SUCCESS', () => {
    it('moves PAYING to PAID, bumps the version by one and records OrderPaid with it', () => {
      const order = inState('PAYING');
      const result = changed(settlePayment(order, notice(), t1));
      expect(result.order).toMatchObject({
        status: 'PAID',
        version: order.version + 1,
        settledByNotifyId: 'n-1',
        paidAt: t1,
      });
      expect(result.event).toEqual({
        type: 'OrderPaid',
        payload: {
          orderId: '42',
          userId: 'u-1',
          payOrderId: 'pay-1',
          notifyId: 'n-1',
          amount: 1999,
          currency: 'EUR',
          paidAt: t1.toISOString(),
        },
      });
    });

    it('is an idempotent repeat when the order is already PAID by this payment', () => {
      const order = inState('PAID');
      expect(settlePayment(order, notice({ notifyId: 'n-2' }), t1)).toEqual({
        kind: 'unchanged',
        order,
      });
    });

    it.each<OrderStatus>(['CANCELLED', 'PAYMENT_FAILED'])(
      'is an illegal transition from %s',
      (status) => {
        expect(settlePayment(inState(status), notice(), t1)).toMatchObject({
          kind: 'rejected',
          rejection: { code: 'ILLEGAL_TRANSITION', action: 'confirmPayment', from: status },
        });
      },
    );
  });

  describe('settlePayment with FAILED', () => {
    it('moves PAYING to PAYMENT_FAILED and records OrderPaymentFailed with the next version', () => {
      const order = inState('PAYING');
      const result = changed(settlePayment(order, notice({ status: 'FAILED' }), t1));
      expect(result.order).toMatchObject({ status: 'PAYMENT_FAILED', version: 4 });
      expect(result.event).toMatchObject({
        type: 'OrderPaymentFailed',
        payload: {
          orderId: '42',
          payOrderId: 'pay-1',
          notifyId: 'n-1',
          failedAt: t1.toISOString(),
        },
      });
    });

    it.each<OrderStatus>(['PAYMENT_FAILED', 'CANCELLED'])(
      'changes nothing when the order is already %s',
      (status) => {
        const order = inState(status);
        expect(settlePayment(order, notice({ status: 'FAILED' }), t1)).toEqual({
          kind: 'unchanged',
          order,
        });
      },
    );

    it('is an illegal transition from PAID (the provider contradicts itself)', () => {
      expect(rejectionCode(settlePayment(inState('PAID'), notice({ status: 'FAILED' }), t1))).toBe(
        'ILLEGAL_TRANSITION',
      );
    });
  });

  describe('settlePayment with a notice that does not match the order', () => {
    it.each(ALL)('rejects an unknown payment id in %s', (status) => {
      expect(rejectionCode(settlePayment(inState(status), notice({ payOrderId: 'x' }), t1))).toBe(
        'UNKNOWN_PAYMENT',
      );
    });

    it('rejects any payment for an order that never started one', () => {
      expect(rejectionCode(settlePayment(inState('CREATED'), notice(), t1))).toBe(
        'UNKNOWN_PAYMENT',
      );
    });

    it.each([
      ['amount', { amount: 1998 }],
      ['currency', { currency: 'USD' }],
    ])('rejects a different %s, even for an order already PAID', (_, overrides) => {
      for (const status of ['PAYING', 'PAID'] as const) {
        expect(settlePayment(inState(status), notice(overrides), t1)).toMatchObject({
          kind: 'rejected',
          rejection: {
            code: 'AMOUNT_MISMATCH',
            expected: { amount: 1999, currency: 'EUR' },
          },
        });
      }
    });
  });

  describe('cancelOrder', () => {
    it.each<OrderStatus>(['CREATED', 'PAYING', 'PAYMENT_FAILED'])(
      'moves %s to CANCELLED with the next version and an OrderCancelled event',
      (status) => {
        const order = inState(status);
        const result = changed(cancelOrder(order, 'changed my mind', t1));
        expect(result.order).toMatchObject({
          status: 'CANCELLED',
          version: order.version + 1,
          cancelledAt: t1,
          closeReason: 'changed my mind',
        });
        expect(result.event).toEqual({
          type: 'OrderCancelled',
          payload: {
            orderId: '42',
            userId: 'u-1',
            reason: 'changed my mind',
            cancelledAt: t1.toISOString(),
          },
        });
      },
    );

    it('is an idempotent repeat for a CANCELLED order', () => {
      const order = inState('CANCELLED');
      expect(cancelOrder(order, 'again', t1)).toEqual({ kind: 'unchanged', order });
    });

    it('refuses to cancel a PAID order', () => {
      expect(cancelOrder(inState('PAID'), 'too late', t1)).toMatchObject({
        kind: 'rejected',
        rejection: { code: 'ILLEGAL_TRANSITION', action: 'cancel', from: 'PAID' },
      });
    });
  });

  it('numbers the events of one order 1, 2, 3 without gaps along a full life', () => {
    const order = created();
    const paying = changed(startPayment(order, 'pay-1', t1)).order;
    const failed = changed(settlePayment(paying, notice({ status: 'FAILED' }), t1));
    const retry = changed(startPayment(failed.order, 'pay-2', t1)).order;
    const paid = changed(settlePayment(retry, notice({ payOrderId: 'pay-2' }), t1));
    expect([order.version, paying.version, failed.order.version]).toEqual([1, 2, 3]);
    expect([retry.version, paid.order.version]).toEqual([4, 5]);
  });
});
