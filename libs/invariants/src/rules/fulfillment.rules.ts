import { Violation } from '../invariant-report';
import { appliedKeys, groupBy, Rule, violation } from './rule-context';

/**
 * Every OrderPaid the fulfillment consumer applied is reflected by exactly one fulfillment, and
 * every fulfillment belongs to an order that reached PAID.
 */
export const fulfillmentPerPaidOrder: Rule = ({ snapshot }) => {
  const violations: Violation[] = [];
  const byOrder = groupBy(snapshot.fulfillments, (f) => f.orderId);
  const applied = appliedKeys(snapshot, 'fulfillment-service', 'OrderPaid');
  const orderOf = (eventKey: string) => eventKey.split(':')[1];
  const wrong = [...applied].filter((key) => (byOrder.get(orderOf(key))?.length ?? 0) !== 1);
  if (wrong.length > 0)
    violations.push(
      violation(
        'paid-order-has-one-fulfillment',
        `${wrong.length} applied OrderPaid events do not have exactly one fulfillment`,
        wrong.map((key) => `${key}: ${byOrder.get(orderOf(key))?.length ?? 0} fulfillments`),
      ),
    );
  const paid = new Set(snapshot.orders.filter((o) => o.paidAt !== null).map((o) => o.id));
  const orphans = snapshot.fulfillments.filter((f) => !paid.has(f.orderId));
  if (orphans.length > 0)
    violations.push(
      violation(
        'fulfillment-has-paid-order',
        `${orphans.length} fulfillments belong to orders that never reached PAID`,
        orphans.map((f) => `fulfillment of order ${f.orderId} (${f.status})`),
      ),
    );
  return violations;
};

/**
 * Every DONE (or later REVERTED) fulfillment has exactly one coupon at the provider, under its
 * idempotency key and with its code; REVERTED ones a REVOKED coupon.
 */
export const couponPerDoneFulfillment: Rule = ({ snapshot, quiescent }) => {
  const byKey = groupBy(snapshot.coupons, (c) => c.idempotencyKey);
  const wrong: string[] = [];
  for (const f of snapshot.fulfillments) {
    if (f.status !== 'DONE' && f.status !== 'REVERTED') continue;
    const coupons = byKey.get(f.grantKey) ?? [];
    const coupon = coupons[0];
    if (coupons.length !== 1 || !f.couponCode || coupon.couponCode !== f.couponCode) {
      wrong.push(`order ${f.orderId}: ${coupons.length} coupons for ${f.grantKey}`);
      continue;
    }
    // A revoke lands at the provider before the fulfillment commits REVERTED; a DONE one read
    // before a revoke may meet a REVOKED coupon unless nothing is moving.
    const expected = f.status === 'REVERTED' ? 'REVOKED' : quiescent ? 'GRANTED' : coupon.status;
    if (coupon.status !== expected)
      wrong.push(`order ${f.orderId}: fulfillment ${f.status}, coupon ${coupon.status}`);
  }
  return wrong.length === 0
    ? []
    : [
        violation(
          'done-fulfillment-has-one-coupon',
          `${wrong.length} granted fulfillments do not match exactly one coupon`,
          wrong,
        ),
      ];
};

/** No idempotency key produced two grants at the coupon provider. */
export const oneGrantPerKey: Rule = ({ snapshot }) => {
  const doubled = [...groupBy(snapshot.coupons, (c) => c.idempotencyKey)].filter(
    ([, coupons]) => coupons.length > 1,
  );
  return doubled.length === 0
    ? []
    : [
        violation(
          'one-grant-per-idempotency-key',
          `${doubled.length} idempotency keys produced more than one coupon`,
          doubled.map(([key, c]) => `${key}: ${c.map((x) => x.couponCode).join(', ')}`),
        ),
      ];
};
