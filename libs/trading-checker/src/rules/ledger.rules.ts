import { eventKeyOf } from '@outbox-inbox/messaging';
import { InvariantRule } from '../invariant-report';
import { JournalFacts, OrderBatch, OrderFacts } from '../order-batch';
import { BatchRule, gatePassed, groupBy, RuleContext, versionOf } from './batch-rule';

const LEDGER = 'accounting-service';

/** One journal the ledger owes for an event, once its gate passed that event. */
interface Expected {
  rule: InvariantRule;
  kind: string;
  sourceEventKey: string;
  amount: number;
  currency: string;
  /** The consumer's gate passed the event: the journal must exist now. */
  due: boolean;
}

/**
 * Journals ↔ the events that owe them, both ways, per order: the OrderPaid a PAYMENT for the
 * order's amount; an OrderCancelled after an OrderPaid a REFUND of the amount paid; each
 * FulfillmentDone (Reverted) of value a COUPON_GRANT (COUPON_REVOKE) of the coupon's value.
 * A journal due (its event passed the ledger's gate) must exist once; a journal no event owes
 * (a refund of an order that stayed paid, a second coupon grant) is a violation.
 */
export const journalsPerEvent: BatchRule = (batch, context) => {
  const journals = groupBy(batch.journals, (j) => j.orderId);
  const fulfillments = groupBy(batch.fulfillments, (f) => f.orderId);
  for (const order of batch.orders) {
    if (order.history.length === 0) {
      context.findings.notCheckable(
        'paid-order-has-one-payment-journal',
        'order older than its event history (t_order_transition)',
      );
      continue;
    }
    const expected = expectedJournals(batch, order);
    for (const f of fulfillments.get(order.id) ?? []) {
      for (const [version, eventType, kind, rule] of [
        [1, 'FulfillmentDone', 'COUPON_GRANT', 'coupon-grant-has-one-journal'],
        [2, 'FulfillmentReverted', 'COUPON_REVOKE', 'coupon-revoke-has-one-journal'],
      ] as const) {
        if (f.eventVersion < version || f.couponValue <= 0) continue;
        expected.push({
          rule,
          kind,
          sourceEventKey: eventKeyOf(eventType, f.id, version),
          amount: f.couponValue,
          currency: f.currency,
          due: gatePassed(batch, LEDGER, `Fulfillment:${f.id}`, version),
        });
      }
    }
    compare(order.id, expected, journals.get(order.id) ?? [], context);
  }
};

function expectedJournals(batch: OrderBatch, order: OrderFacts): Expected[] {
  const paid = versionOf(order.history, 'OrderPaid');
  const cancelled = versionOf(order.history, 'OrderCancelled');
  const expected: Expected[] = [];
  if (paid === undefined || order.paidAt === null) return expected;
  const owed = { amount: order.amount, currency: order.currency };
  expected.push({
    rule: 'paid-order-has-one-payment-journal',
    kind: 'PAYMENT',
    sourceEventKey: eventKeyOf('OrderPaid', order.id, paid),
    ...owed,
    due: gatePassed(batch, LEDGER, `Order:${order.id}`, paid),
  });
  if (cancelled !== undefined && cancelled > paid)
    expected.push({
      rule: 'refund-matches-cancelled-payment',
      kind: 'REFUND',
      sourceEventKey: eventKeyOf('OrderCancelled', order.id, cancelled),
      ...owed,
      due: gatePassed(batch, LEDGER, `Order:${order.id}`, cancelled),
    });
  return expected;
}

const RULE_OF_KIND: Record<string, InvariantRule> = {
  PAYMENT: 'payment-journal-matches-order',
  REFUND: 'refund-matches-cancelled-payment',
  COUPON_GRANT: 'coupon-grant-has-one-journal',
  COUPON_REVOKE: 'coupon-revoke-has-one-journal',
};

function compare(
  orderId: string,
  expected: Expected[],
  journals: JournalFacts[],
  { findings }: RuleContext,
): void {
  const bySource = groupBy(journals, (j) => j.sourceEventKey);
  for (const e of expected) {
    const found = (bySource.get(e.sourceEventKey) ?? []).filter((j) => j.kind === e.kind);
    if (found.length > 1 || (e.due && found.length === 0))
      findings.violate(e.rule, `${e.sourceEventKey}: ${found.length} ${e.kind} journals`);
    for (const j of found)
      if (j.totalDebit !== e.amount || j.currency !== e.currency)
        findings.violate(
          e.kind === 'PAYMENT' ? 'payment-journal-matches-order' : e.rule,
          `journal ${j.id} (${j.kind}, order ${orderId}): ${j.totalDebit} ${j.currency}, owed ${e.amount} ${e.currency}`,
        );
  }
  const owed = new Set(expected.map((e) => `${e.kind} ${e.sourceEventKey}`));
  const perKind = groupBy(journals, (j) => j.kind);
  for (const j of journals) {
    const rule = RULE_OF_KIND[j.kind];
    if (!rule || owed.has(`${j.kind} ${j.sourceEventKey}`)) continue;
    findings.violate(
      rule,
      `journal ${j.id} (${j.kind}, order ${orderId}, from ${j.sourceEventKey}): no event owes it`,
    );
  }
  const payments = perKind.get('PAYMENT')?.length ?? 0;
  if (payments > 1)
    findings.violate(
      'paid-order-has-one-payment-journal',
      `order ${orderId}: ${payments} PAYMENT journals`,
    );
}
