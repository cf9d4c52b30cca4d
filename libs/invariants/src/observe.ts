import { Observations } from './invariant-report';
import { eventStandings } from './rules/event-accounting';
import { Snapshot } from './snapshot';

const LISTED = 50;

/** What the at-least-once machinery did, counted: duplicates delivered, parked, dead, pending. */
export function observe(snapshot: Snapshot): Observations {
  const copies = new Map<string, number>();
  for (const m of snapshot.topicMessages)
    if (m.eventKey) copies.set(m.eventKey, (copies.get(m.eventKey) ?? 0) + 1);
  const duplicated = [...copies].filter(([, n]) => n > 1);
  const standings = eventStandings(snapshot);
  const listed = (standing: string) =>
    standings.filter((s) => s.standing === standing).map((s) => `${s.consumer} ${s.id}`);
  const outboxRows = Object.entries(snapshot.outbox).flatMap(([service, rows]) =>
    rows.map((r) => ({ ...r, service })),
  );
  return {
    paidOrders: snapshot.orders.filter((o) => o.paidAt !== null).length,
    topicMessages: snapshot.topicMessages.length,
    duplicateDeliveries: duplicated.reduce((sum, [, n]) => sum + n - 1, 0),
    duplicatedEventKeys: duplicated.slice(0, LISTED).map(([key, n]) => `${key} x${n}`),
    deadOutboxRows: outboxRows
      .filter((r) => r.status === 'DEAD')
      .map((r) => `${r.service} outbox ${r.id} ${r.eventKey}: ${r.lastError ?? ''}`),
    parkedEvents: listed('parked'),
    deadLetteredEvents: listed('dead-lettered'),
    inFlightEvents: listed('in-flight'),
    unsentOutboxRows: outboxRows
      .filter((r) => r.status === 'NEW' || r.status === 'SENDING')
      .map((r) => `${r.service} outbox ${r.id} ${r.status}`),
    pendingFulfillments: snapshot.fulfillments
      .filter((f) => f.status === 'INIT' || f.status === 'FAILED')
      .map((f) => `order ${f.orderId} ${f.status}`),
  };
}
