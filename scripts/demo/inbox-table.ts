import { Cell, textTable } from '../ops/text-table';
import { DEMO_CONSUMERS, DemoConsumer } from './inbox-api';
import { RunState, tallyConsumer } from './run-state';

/**
 * The inboxes' part of the summary: per consumer, what became of every delivery of the run's
 * events, as an equation whose header says how it adds up (deliveries = duplicates + applied +
 * ignored + dead-lettered, + waiting when some are parked), then what each term means.
 * `copies` are the copies the driver wrote back to the topics each consumer reads.
 */
export function formatInboxTable(
  state: RunState,
  copies: Record<DemoConsumer, number>,
  replayed: number,
): string[] {
  const tallies = DEMO_CONSUMERS.map((c) => ({ consumer: c, ...tallyConsumer(state, c) }));
  // Parked or stale events are none once a run is at rest; their column shows only if not.
  const waiting = tallies.some((t) => t.waiting > 0);
  const headers = ['consumer', 'deliveries', '= duplicates', '+ applied', '+ ignored'];
  if (waiting) headers.push('+ waiting');
  headers.push('+ dead-lettered');
  const rows: Cell[][] = tallies.map((t) => [
    t.consumer,
    t.deliveries,
    t.duplicatesAbsorbed,
    t.effectsApplied,
    t.ignored,
    ...(waiting ? [t.waiting] : []),
    t.deadLetters,
  ]);
  const copyList = DEMO_CONSUMERS.map((c) => `${c} ${copies[c]}`).join(', ');
  return [
    "inboxes: what became of every delivery of the run's events",
    ...indent(textTable(headers, rows).split('\n')),
    ...indent([
      'duplicates: copies absorbed; at least those the driver wrote to the topics it reads',
      `  (${copyList}), any more redelivered by Kafka`,
      '  itself (offsets not committed before the crash) or sent twice by the relay',
      'applied: its handler wrote the effect',
      `ignored: recorded, no handler for its type (${ignoredTypes(state)})`,
      ...(waiting ? ['waiting: parked until an earlier version comes, or stale'] : []),
      `dead-lettered: sent to the dead-letter topic; ${replayed} replayed, and each replay once`,
      '  applied is a delivery of its own, under applied',
    ]),
  ];
}

/** The event types the consumers recorded as ignored, e.g. `OrderCreated, OrderPaymentStarted`. */
function ignoredTypes(state: RunState): string {
  const types = new Set<string>();
  for (const o of state.orders)
    for (const c of DEMO_CONSUMERS)
      for (const r of o.inbox[c]) if (r.outcome === 'ignored') types.add(r.eventKey.split(':')[0]);
  return types.size > 0 ? [...types].sort().join(', ') : 'none';
}

function indent(lines: string[]): string[] {
  return lines.map((line) => `  ${line}`);
}
