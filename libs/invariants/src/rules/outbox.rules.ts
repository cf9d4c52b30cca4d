import { Violation } from '../invariant-report';
import { groupBy, Rule, violation } from './rule-context';

/** Every order that reached PAID has exactly one OrderPaid outbox row; none exists without one. */
export const orderPaidEvents: Rule = ({ snapshot }) => {
  const rows = (snapshot.outbox['order-service'] ?? []).filter((r) => r.eventType === 'OrderPaid');
  const byOrder = groupBy(rows, (r) => r.aggregateId);
  const paid = snapshot.orders.filter((o) => o.paidAt !== null);
  const paidIds = new Set(paid.map((o) => o.id));
  const violations: Violation[] = [];
  const wrongCount = paid.filter((o) => (byOrder.get(o.id)?.length ?? 0) !== 1);
  if (wrongCount.length > 0)
    violations.push(
      violation(
        'paid-order-has-one-order-paid-event',
        `${wrongCount.length} paid orders do not have exactly one OrderPaid outbox row`,
        wrongCount.map((o) => `order ${o.id}: ${byOrder.get(o.id)?.length ?? 0} rows`),
      ),
    );
  const orphans = rows.filter((r) => !paidIds.has(r.aggregateId));
  if (orphans.length > 0)
    violations.push(
      violation(
        'order-paid-event-has-paid-order',
        `${orphans.length} OrderPaid rows belong to orders that never reached PAID`,
        orphans.map((r) => `outbox ${r.id} (order ${r.aggregateId})`),
      ),
    );
  return violations;
};

/** Acknowledged ⊆ delivered: every outbox row marked SENT is in its topic. */
export const sentEventsInTopics: Rule = ({ snapshot }) => {
  const published = new Set(snapshot.topicMessages.map((m) => m.eventKey));
  const missing = Object.entries(snapshot.outbox).flatMap(([service, rows]) =>
    rows
      .filter((r) => r.status === 'SENT' && !published.has(r.eventKey))
      .map((r) => `${service} outbox ${r.id} ${r.eventKey}`),
  );
  return missing.length === 0
    ? []
    : [
        violation(
          'sent-event-is-in-topic',
          `${missing.length} outbox rows are SENT but their event is in no topic`,
          missing,
        ),
      ];
};
