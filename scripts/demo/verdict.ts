import type { InvariantReport } from '@app/trading-checker';
import { DEMO_CONSUMERS, orderInFlight, RunState, tallyConsumer } from './run-state';

/** One promise the demo checks, and what broke it ('' when it held). */
export interface DemoCheck {
  check: string;
  what: string;
}

/** What the run must show, beyond the orders themselves. */
export interface RunExpectations {
  /** Copies of the run's events written back to each topic (see republishCopies). */
  republished: Record<string, number>;
  /** The topics each consumer reads. */
  consumerTopics: Record<(typeof DEMO_CONSUMERS)[number], string[]>;
}

/**
 * The demo's checks, in the order they are reported: the run's own orders first (each paid,
 * fulfilled and booked once), then the inboxes (every copy absorbed, nothing dead-lettered),
 * then the ledger, then every rule of the invariant checker on the deployment.
 */
export function judgeRun(
  state: RunState,
  expectations: RunExpectations,
  invariants: InvariantReport,
): DemoCheck[] {
  const checks: DemoCheck[] = [];
  const add = (check: string, offenders: string[], describe: (ids: string) => string) =>
    checks.push({ check, what: offenders.length ? describe(list(offenders)) : '' });

  const orders = state.orders;
  add(
    'run-at-rest',
    orders.filter(orderInFlight).map((o) => o.id),
    (ids) => `orders with events or a coupon grant still in flight: ${ids}`,
  );
  add(
    'paid-once',
    orders.filter((o) => o.status !== 'PAID' || o.paidTransitions !== 1).map((o) => o.id),
    (ids) => `orders not moved to PAID exactly once: ${ids}`,
  );
  add(
    'fulfilled-once',
    orders.filter((o) => o.fulfillmentStatus !== 'DONE' || !o.couponCode).map((o) => o.id),
    (ids) => `orders without one DONE fulfillment and its coupon: ${ids}`,
  );
  for (const kind of ['PAYMENT', 'COUPON_GRANT']) {
    add(
      `one-${kind.toLowerCase().replace('_', '-')}-journal-per-order`,
      orders
        .filter((o) => (o.journals[kind] ?? 0) !== 1)
        .map((o) => `${o.id} (${o.journals[kind] ?? 0})`),
      (ids) => `orders without exactly one ${kind} journal: ${ids}`,
    );
  }
  for (const consumer of DEMO_CONSUMERS) {
    const tally = tallyConsumer(state, consumer);
    const copies = expectations.consumerTopics[consumer].reduce(
      (sum, topic) => sum + (expectations.republished[topic] ?? 0),
      0,
    );
    checks.push({
      check: `${consumer}-absorbed-redeliveries`,
      what:
        tally.duplicatesAbsorbed >= copies
          ? ''
          : `${copies} copies were redelivered, its inbox counted ${tally.duplicatesAbsorbed} duplicates`,
    });
    add(
      `${consumer}-no-dead-letters`,
      state.deadLetters[consumer].map((l) => `${l.eventKey ?? l.key} (${l.errorCode})`),
      (ids) => `dead-lettered: ${ids}`,
    );
  }
  checks.push({
    check: 'ledger-reconciled',
    what: state.ledger.clean ? '' : `reconciliation found ${state.ledger.mismatches} mismatches`,
  });
  for (const v of invariants.violations) {
    checks.push({
      check: `invariant ${v.rule}`,
      what: v.ids.length > 0 ? `${v.message}: ${list(v.ids)}` : v.message,
    });
  }
  return checks;
}

/** The verdict line: `demo: PASS ...`, or `demo: FAIL <check>: <what>` for the first failure. */
export function verdictLine(checks: DemoCheck[], orders: number): string {
  const failed = checks.filter((c) => c.what !== '');
  if (failed.length === 0) {
    return `demo: PASS ${orders} orders paid, fulfilled and booked once; ${checks.length} checks and the invariant checker hold`;
  }
  const more = failed.length > 1 ? ` (and ${failed.length - 1} more failed checks)` : '';
  return `demo: FAIL ${failed[0].check}: ${failed[0].what}${more}`;
}

function list(items: string[], max = 5): string {
  return items.length > max
    ? `${items.slice(0, max).join(', ')} and ${items.length - max} more`
    : items.join(', ');
}
