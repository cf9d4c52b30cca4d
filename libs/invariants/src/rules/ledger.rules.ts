import { Violation } from '../invariant-report';
import { appliedKeys, distinctEvents, groupBy, Rule, violation } from './rule-context';

/**
 * Exactly one PAYMENT journal per OrderPaid the ledger applied, none for an order that never
 * reached PAID, and each books the order's amount and currency.
 */
export const paymentJournalPerPaidOrder: Rule = ({ snapshot }) => {
  const violations: Violation[] = [];
  const payments = snapshot.journals.filter((j) => j.kind === 'PAYMENT');
  const byOrder = groupBy(payments, (j) => j.orderId);
  const applied = appliedKeys(snapshot, 'accounting-service', 'OrderPaid');
  const orderOf = (eventKey: string) => eventKey.split(':')[1];
  const wrongCount = [...applied].filter((key) => (byOrder.get(orderOf(key))?.length ?? 0) !== 1);
  const doubled = [...byOrder].filter(([, js]) => js.length > 1).map(([orderId]) => orderId);
  const wrong = new Set([...wrongCount.map(orderOf), ...doubled]);
  if (wrong.size > 0)
    violations.push(
      violation(
        'paid-order-has-one-payment-journal',
        `${wrong.size} paid orders do not have exactly one payment journal`,
        [...wrong].map((id) => `order ${id}: ${byOrder.get(id)?.length ?? 0} payment journals`),
      ),
    );
  const orders = new Map(snapshot.orders.map((o) => [o.id, o]));
  const mismatched = payments.filter((j) => {
    const order = orders.get(j.orderId);
    return !order?.paidAt || order.amount !== j.totalDebit || order.currency !== j.currency;
  });
  if (mismatched.length > 0)
    violations.push(
      violation(
        'payment-journal-matches-order',
        `${mismatched.length} payment journals book no paid order or another amount`,
        mismatched.map((j) => {
          const o = orders.get(j.orderId);
          const paid = o?.paidAt ? `${o.amount} ${o.currency}` : 'not paid';
          return `journal ${j.id} (order ${j.orderId}): booked ${j.totalDebit} ${j.currency}, order ${paid}`;
        }),
      ),
    );
  return violations;
};

/** Exactly one COUPON_GRANT journal per applied FulfillmentDone with a coupon of value. */
export const couponGrantJournals: Rule = ({ snapshot }) => {
  const events = distinctEvents(snapshot.topicMessages);
  const applied = appliedKeys(snapshot, 'accounting-service', 'FulfillmentDone');
  const grants = groupBy(
    snapshot.journals.filter((j) => j.kind === 'COUPON_GRANT'),
    (j) => j.sourceEventKey,
  );
  const wrong: string[] = [];
  for (const key of applied) {
    const value = Number(events.get(key)?.payload?.couponValue ?? NaN);
    const expected = value > 0 ? 1 : 0;
    const actual = grants.get(key)?.length ?? 0;
    // Without the event's payload (pruned from the topic) the value is unknown: at most one.
    if (Number.isNaN(value) ? actual > 1 : actual !== expected)
      wrong.push(`${key}: ${actual} coupon journals`);
  }
  for (const [key, journals] of grants)
    if (!applied.has(key)) wrong.push(`${key}: ${journals.length} journals, event not applied`);
  return wrong.length === 0
    ? []
    : [
        violation(
          'coupon-grant-has-one-journal',
          `${wrong.length} FulfillmentDone events do not have the coupon journals they should`,
          wrong,
        ),
      ];
};

/** Every journal is balanced: at least two lines, one currency, debits = credits = its totals. */
export const balancedJournals: Rule = ({ snapshot }) => {
  const unbalanced = snapshot.journals.filter((j) => {
    const debits = j.lines.reduce((sum, l) => sum + l.debit, 0);
    const credits = j.lines.reduce((sum, l) => sum + l.credit, 0);
    return (
      j.lines.length < 2 ||
      j.lines.some((l) => l.currency !== j.currency) ||
      debits !== credits ||
      debits !== j.totalDebit ||
      credits !== j.totalCredit
    );
  });
  return unbalanced.length === 0
    ? []
    : [
        violation(
          'journal-is-balanced',
          `${unbalanced.length} journals are not balanced`,
          unbalanced.map((j) => `journal ${j.id} (${j.kind}, order ${j.orderId})`),
        ),
      ];
};

/** Every account balance equals the sum of its journal lines (debits minus credits). */
export const balancesMatchLines: Rule = ({ snapshot }) => {
  const sums = new Map<string, number>();
  for (const line of snapshot.journals.flatMap((j) => j.lines)) {
    const key = `${line.accountCode} ${line.currency}`;
    sums.set(key, (sums.get(key) ?? 0) + line.debit - line.credit);
  }
  const wrong = snapshot.accounts
    .map((a) => ({ key: `${a.code} ${a.currency}`, balance: a.balance }))
    .filter(({ key, balance }) => balance !== (sums.get(key) ?? 0));
  return wrong.length === 0
    ? []
    : [
        violation(
          'balance-equals-journal-lines',
          `${wrong.length} account balances differ from the sum of their lines`,
          wrong.map(
            ({ key, balance }) => `${key}: balance ${balance}, lines ${sums.get(key) ?? 0}`,
          ),
        ),
      ];
};
