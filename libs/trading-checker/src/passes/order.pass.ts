import { OrderBatch } from '../order-batch';
import { str } from '../read/database-snapshot';
import { loadOrderBatch } from '../read/load-order-batch';
import { BatchRule, RuleContext } from '../rules/batch-rule';
import { couponPerDoneFulfillment, fulfillmentPerPaidOrder } from '../rules/fulfillment.rules';
import { historyMatchesOrders, outboxRowsMatchHistory } from '../rules/history.rules';
import { journalsPerEvent } from '../rules/ledger.rules';
import { versionsAppliedInOrder } from '../rules/version.rules';
import { CheckContext } from './check-context';

/** The rules over a page of orders and everything every service holds about them. */
export const BATCH_RULES: BatchRule[] = [
  historyMatchesOrders,
  outboxRowsMatchHistory,
  fulfillmentPerPaidOrder,
  couponPerDoneFulfillment,
  journalsPerEvent,
  versionsAppliedInOrder,
];

/** Applies every batch rule to one batch (pure; the unit tests' entry point). */
export function checkOrderBatch(batch: OrderBatch, context: RuleContext): void {
  for (const rule of BATCH_RULES) rule(batch, context);
}

/** Streams the orders by id, page by page, and checks each page against every service. */
export async function orderPass(context: CheckContext): Promise<void> {
  const { deployment, findings } = context;
  const pages = deployment.order.pages(
    'SELECT id, status, amount, currency, paid_at FROM t_order WHERE id > ? ORDER BY id LIMIT ?',
    (r) => str(r.id),
    '0',
    context.pageSize,
  );
  for await (const rows of pages) {
    const batch = await loadOrderBatch(deployment, rows);
    findings.observations.orders += batch.orders.length;
    findings.observations.paidOrders += batch.orders.filter((o) => o.paidAt !== null).length;
    checkOrderBatch(batch, context);
  }
}

/** Fulfillments of orders that do not exist (those of existing orders are the order pass's). */
export async function fulfillmentOrphanPass(context: CheckContext): Promise<void> {
  const { deployment, findings } = context;
  const pages = deployment.fulfillment.pages(
    'SELECT id, order_id, status FROM t_fulfillment WHERE id > ? ORDER BY id LIMIT ?',
    (r) => str(r.id),
    '0',
    context.pageSize,
  );
  for await (const rows of pages) {
    const ids = [...new Set(rows.map((r) => str(r.order_id)))];
    const found = await deployment.order.query('SELECT id FROM t_order WHERE id IN (?)', [ids]);
    const existing = new Set(found.map((r) => str(r.id)));
    for (const r of rows)
      if (!existing.has(str(r.order_id)))
        findings.violate(
          'fulfillment-has-paid-order',
          `fulfillment ${str(r.id)} of order ${str(r.order_id)} (${str(r.status)}): no such order`,
        );
  }
}
