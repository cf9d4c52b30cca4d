import { num, str } from '../read/database-snapshot';
import { CheckContext } from './check-context';

/**
 * Coupons → fulfillments (the other half of `done-fulfillment-has-one-coupon`): streams the
 * provider's coupons and finds, for each, the fulfillment of its order that granted it, under
 * the same idempotency key and with the same code. Per order and per key, the provider's own
 * GROUP BY finds any second coupon.
 */
export async function couponPass(context: CheckContext): Promise<void> {
  const { deployment, findings, quiescent } = context;
  const pages = deployment.coupons.pages(
    `SELECT coupon_code, idempotency_key, order_id, status FROM t_coupon
     WHERE coupon_code > ? ORDER BY coupon_code LIMIT ?`,
    (r) => str(r.coupon_code),
    '',
    context.pageSize,
  );
  for await (const rows of pages) {
    const orderIds = [...new Set(rows.map((r) => str(r.order_id)))];
    const fulfillments = await deployment.fulfillment.query(
      'SELECT order_id, status, grant_key, coupon_code FROM t_fulfillment WHERE order_id IN (?)',
      [orderIds],
    );
    const byOrder = new Map(fulfillments.map((f) => [str(f.order_id), f]));
    for (const c of rows) {
      const f = byOrder.get(str(c.order_id));
      const id = `coupon ${str(c.coupon_code)} (order ${str(c.order_id)}, key ${str(c.idempotency_key)})`;
      if (!f) {
        // The fulfillment commits after its grant: on a live system it may be on its way.
        if (quiescent) findings.violate('coupon-has-fulfillment', `${id}: no fulfillment`);
        continue;
      }
      if (str(f.grant_key) !== str(c.idempotency_key))
        findings.violate(
          'coupon-has-fulfillment',
          `${id}: the fulfillment grants under ${str(f.grant_key)}`,
        );
      else if (
        (f.status === 'DONE' || f.status === 'REVERTED') &&
        str(f.coupon_code) !== str(c.coupon_code)
      )
        findings.violate(
          'coupon-has-fulfillment',
          `${id}: the fulfillment holds ${str(f.coupon_code)}`,
        );
      else if (f.status !== 'DONE' && f.status !== 'REVERTED' && quiescent)
        findings.violate('coupon-has-fulfillment', `${id}: the fulfillment is ${str(f.status)}`);
    }
  }
  for (const r of await deployment.coupons.query(
    `SELECT order_id, COUNT(*) AS n, GROUP_CONCAT(coupon_code ORDER BY coupon_code) AS codes
     FROM t_coupon GROUP BY order_id HAVING COUNT(*) > 1 ORDER BY order_id LIMIT 1000`,
  ))
    findings.violate(
      'one-coupon-per-order',
      `order ${str(r.order_id)}: ${num(r.n)} coupons ${str(r.codes)}`,
    );
  for (const r of await deployment.coupons.query(
    `SELECT idempotency_key, GROUP_CONCAT(coupon_code ORDER BY coupon_code SEPARATOR ', ') AS codes
     FROM t_coupon GROUP BY idempotency_key HAVING COUNT(*) > 1 ORDER BY idempotency_key LIMIT 1000`,
  ))
    findings.violate('one-grant-per-idempotency-key', `${str(r.idempotency_key)}: ${str(r.codes)}`);
}
