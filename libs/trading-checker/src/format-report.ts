import { InvariantReport } from './invariant-report';

const SHOWN_IDS = 20;

/** The report as text for a terminal: violations with their ids, then what was observed. */
export function formatInvariantReport(report: InvariantReport): string {
  const o = report.observations;
  const lines = [
    report.ok
      ? `invariants hold (${report.checkedAt})`
      : `${report.violations.length} invariant violations (${report.checkedAt})`,
  ];
  for (const v of report.violations) {
    lines.push(`  x ${v.rule}: ${v.message}`);
    for (const id of v.ids.slice(0, SHOWN_IDS)) lines.push(`      ${id}`);
    if (v.ids.length > SHOWN_IDS) lines.push(`      ... and ${v.ids.length - SHOWN_IDS} more`);
  }
  for (const n of report.notCheckable)
    lines.push(`  - ${n.rule}: ${n.count} not checkable after retention (${n.reason})`);
  lines.push(
    `observed: ${o.orders} orders, ${o.paidOrders} paid, ${o.topicMessages} topic messages, ` +
      `${o.duplicateDeliveries} duplicate deliveries (absorbed), ${o.deadOutboxRows.length} DEAD ` +
      `outbox rows, ${o.parkedEvents.length} parked, ${o.deadLetteredEvents.length} dead-lettered, ` +
      `${o.inFlightEvents.length + o.unsentOutboxRows.length + o.pendingFulfillments.length} in flight`,
  );
  const listed: Array<[string, string[]]> = [
    ['DEAD outbox rows', o.deadOutboxRows],
    ['parked events', o.parkedEvents],
    ['dead-lettered events', o.deadLetteredEvents],
  ];
  for (const [title, items] of listed) {
    if (items.length === 0) continue;
    lines.push(`  ${title}:`);
    for (const item of items.slice(0, SHOWN_IDS)) lines.push(`      ${item}`);
    if (items.length > SHOWN_IDS) lines.push(`      ... and ${items.length - SHOWN_IDS} more`);
  }
  return lines.join('\n');
}
