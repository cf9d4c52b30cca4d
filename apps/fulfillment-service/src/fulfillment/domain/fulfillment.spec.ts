import {
  couponValueFor,
  decideCancel,
  decideGrant,
  FulfillmentState,
  IllegalTransitionError,
  markCancelled,
  markGranted,
  markGrantFailed,
  markReverted,
  RetrySchedule,
} from './fulfillment';

const schedule: RetrySchedule = { maxAttempts: 3, delayAfter: (n) => 1_000 * n };
const now = new Date('2026-12-01T10:00:00.000Z');

function fulfillment(overrides: Partial<FulfillmentState> = {}): FulfillmentState {
  return {
    id: '7',
    orderId: '42',
    userId: 'u-1',
    status: 'INIT',
    version: 1,
    eventVersion: 0,
    grantKey: 'OrderPaid:42:3',
    couponValue: 100,
    currency: 'EUR',
    couponCode: null,
    attempts: 0,
    nextAttemptAt: null,
    lastError: null,
    ...overrides,
  };
}

describe('Fulfillment state machine', () => {
  describe('when OrderPaid arrives', () => {
    it('grants from INIT and from a FAILED fulfillment that is due again', () => {
      expect(decideGrant(fulfillment())).toEqual({ kind: 'grant' });
      expect(decideGrant(fulfillment({ status: 'FAILED', nextAttemptAt: now }))).toEqual({
        kind: 'grant',
      });
    });

    it('does nothing when DONE, CANCELLED, REVERTED or stuck', () => {
      expect(decideGrant(fulfillment({ status: 'DONE' }))).toMatchObject({
        reason: 'already-done',
      });
      expect(decideGrant(fulfillment({ status: 'CANCELLED' }))).toMatchObject({
        reason: 'cancelled',
      });
      expect(decideGrant(fulfillment({ status: 'REVERTED' }))).toMatchObject({
        reason: 'reverted',
      });
      expect(decideGrant(fulfillment({ status: 'FAILED', nextAttemptAt: null }))).toMatchObject({
        reason: 'stuck',
      });
    });
  });

  it('a granted coupon makes it DONE, bumps the row version and the event version', () => {
    const done = markGranted(fulfillment({ status: 'FAILED', attempts: 1 }), 'C-1');
    expect(done).toMatchObject({
      status: 'DONE',
      version: 2,
      eventVersion: 1,
      couponCode: 'C-1',
      attempts: 2,
      nextAttemptAt: null,
    });
  });

  it('a failed grant schedules the next attempt, and the last allowed failure leaves it stuck', () => {
    const first = markGrantFailed(fulfillment(), 'provider down', now, schedule);
    expect(first).toMatchObject({ status: 'FAILED', attempts: 1, version: 2, eventVersion: 0 });
    expect(first.nextAttemptAt).toEqual(new Date(now.getTime() + 1_000));
    const third = markGrantFailed(
      fulfillment({ status: 'FAILED', attempts: 2 }),
      'down',
      now,
      schedule,
    );
    expect(third).toMatchObject({ status: 'FAILED', attempts: 3, nextAttemptAt: null });
  });

  it('a permanent refusal is stuck at once', () => {
    expect(
      markGrantFailed(fulfillment(), 'conflict', now, schedule, true).nextAttemptAt,
    ).toBeNull();
  });

  describe('when OrderCancelled arrives', () => {
    it('cancels what was not granted and reverts what was', () => {
      expect(decideCancel(fulfillment())).toEqual({ kind: 'cancel' });
      expect(decideCancel(fulfillment({ status: 'FAILED' }))).toEqual({ kind: 'cancel' });
      expect(decideCancel(fulfillment({ status: 'DONE', couponCode: 'C-1' }))).toEqual({
        kind: 'revert',
        couponCode: 'C-1',
      });
      expect(decideCancel(fulfillment({ status: 'REVERTED' }))).toEqual({ kind: 'nothing-to-do' });
      expect(markCancelled(fulfillment()).status).toBe('CANCELLED');
      expect(markReverted(fulfillment({ status: 'DONE', eventVersion: 1 }))).toMatchObject({
        status: 'REVERTED',
        eventVersion: 2,
      });
    });
  });

  it('refuses illegal transitions', () => {
    expect(() => markGranted(fulfillment({ status: 'DONE' }), 'C-2')).toThrow(
      IllegalTransitionError,
    );
    expect(() => markGrantFailed(fulfillment({ status: 'CANCELLED' }), 'x', now, schedule)).toThrow(
      IllegalTransitionError,
    );
    expect(() => markCancelled(fulfillment({ status: 'DONE' }))).toThrow(IllegalTransitionError);
    expect(() => markReverted(fulfillment({ status: 'INIT' }))).toThrow(IllegalTransitionError);
  });

  it('values the coupon in basis points of the paid amount, at least one minor unit', () => {
    expect(couponValueFor(10_000, 500)).toBe(500);
    expect(couponValueFor(10, 500)).toBe(1);
  });
});
