import { eventKeyOf } from '@outbox-inbox/messaging';
import { BatchRule, gatePassed, groupBy, versionOf } from './batch-rule';

const FULFILLMENT = 'fulfillment-service';

/**
 * Paid orders ↔ fulfillments, both ways. Once the fulfillment consumer's gate passed an
 * order's OrderPaid, the order has exactly one fulfillment, under that event's key, still
 * granting or granted (or cancelled / reverted when the order was cancelled after payment).
 * Every fulfillment belongs to a paid order, except the CANCELLED marker written on purpose
 * when an order is cancelled before any payment (it must belong to a cancelled order).
 */
export const fulfillmentPerPaidOrder: BatchRule = (batch, { findings, quiescent }) => {
  const byOrder = groupBy(batch.fulfillments, (f) => f.orderId);
  for (const order of batch.orders) {
    const fulfillments = byOrder.get(order.id) ?? [];
    if (fulfillments.length > 1)
      findings.violate(
        'paid-order-has-one-fulfillment',
        `order ${order.id}: ${fulfillments.length} fulfillments`,
      );
    const paidVersion = versionOf(order.history, 'OrderPaid');
    const cancelledVersion = versionOf(order.history, 'OrderCancelled');
    const cancelledAfterPayment =
      paidVersion !== undefined && cancelledVersion !== undefined && cancelledVersion > paidVersion;
    if (order.paidAt !== null && paidVersion !== undefined) {
      const grantKey = eventKeyOf('OrderPaid', order.id, paidVersion);
      const passed = gatePassed(batch, FULFILLMENT, `Order:${order.id}`, paidVersion);
      const mine = fulfillments.filter((f) => f.grantKey === grantKey);
      if (passed && mine.length !== 1)
        findings.violate(
          'paid-order-has-one-fulfillment',
          `${grantKey}: passed the gate, ${mine.length} fulfillments under its key`,
        );
    }
    for (const f of fulfillments) {
      const id = `fulfillment ${f.id} of order ${order.id} (${f.status})`;
      if (f.grantKey === '') {
        if (f.status !== 'CANCELLED' || order.status !== 'CANCELLED')
          findings.violate(
            'fulfillment-has-paid-order',
            `${id}: cancellation marker, order ${order.status}`,
          );
        continue;
      }
      const expectedKey =
        paidVersion === undefined ? undefined : eventKeyOf('OrderPaid', order.id, paidVersion);
      if (order.paidAt === null || (expectedKey !== undefined && f.grantKey !== expectedKey))
        findings.violate(
          'fulfillment-has-paid-order',
          `${id}: granted for ${f.grantKey}, order ${order.status}${order.paidAt ? '' : ', never paid'}`,
        );
      else if ((f.status === 'CANCELLED' || f.status === 'REVERTED') && !cancelledAfterPayment)
        findings.violate(
          'fulfillment-has-paid-order',
          `${id}: order ${order.status}, not cancelled`,
        );
      if (f.status === 'INIT' || f.status === 'FAILED') {
        findings.list('pendingFulfillments', `order ${order.id} ${f.status}`);
        if (quiescent) findings.violate('nothing-in-flight', `fulfillment ${id}`);
      }
    }
  }
};

/**
 * Fulfillments ↔ coupons: a DONE (REVERTED) fulfillment has exactly one coupon under its
 * grant key, with its code, GRANTED (REVOKED); a cancelled one has no granted coupon; at rest,
 * one still granting has none either.
 */
export const couponPerDoneFulfillment: BatchRule = (batch, { findings, quiescent }) => {
  const byKey = groupBy(batch.coupons, (c) => c.idempotencyKey);
  for (const f of batch.fulfillments) {
    const coupons = f.grantKey === '' ? [] : (byKey.get(f.grantKey) ?? []);
    const id = `order ${f.orderId} (fulfillment ${f.id} ${f.status})`;
    if (f.status === 'DONE' || f.status === 'REVERTED') {
      const [coupon] = coupons;
      if (coupons.length !== 1 || coupon.couponCode !== f.couponCode) {
        findings.violate(
          'done-fulfillment-has-one-coupon',
          `${id}: ${coupons.length} coupons under ${f.grantKey}${
            coupons.length === 1 ? `, code ${coupon.couponCode} instead of ${f.couponCode}` : ''
          }`,
        );
        continue;
      }
      // A revoke lands at the provider before the fulfillment commits REVERTED; a DONE one read
      // before a revoke may meet a REVOKED coupon unless nothing is moving.
      const expected = f.status === 'REVERTED' ? 'REVOKED' : quiescent ? 'GRANTED' : coupon.status;
      if (coupon.status !== expected)
        findings.violate(
          'done-fulfillment-has-one-coupon',
          `${id}: coupon ${coupon.couponCode} ${coupon.status}`,
        );
    } else {
      const granted = coupons.filter((c) => c.status === 'GRANTED');
      // A coupon granted for a fulfillment still INIT or FAILED is a grant whose commit is on
      // its way on a live system; at rest, or once cancelled, it is a coupon nobody accounts for.
      if (granted.length > 0 && (f.status === 'CANCELLED' || quiescent))
        findings.violate(
          'done-fulfillment-has-one-coupon',
          `${id}: coupon ${granted.map((c) => c.couponCode).join(', ')} GRANTED`,
        );
    }
  }
};
