import type { InvariantReport } from '@app/trading-checker';
import type { DeadLetterDrill } from './dead-letter-drill';
import { DEMO_CONSUMERS, DemoConsumer } from './inbox-api';
import { orderInFlight, OrderState, RunState, tallyConsumer } from './run-state';

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
  consumerTopics: Record<DemoConsumer, string[]>;
  /** The dead-letter drill, when the run staged one (npm run demo does). */
  drill?: DeadLetterDrill;
}

/**
 * The demo's checks, in the order they are reported: the run's own orders first (each paid
 * and fulfilled once), then the dead letters (the drill's shown and replayed, and none left
 * behind: each replayed and its event applied), then each order booked once, the inboxes
 * (every copy absorbed), the ledger, and every rule of the invariant checker on the deployment.
 * Dead letters come before the journals because a dead letter left behind is the cause of the
 * journal that is missing.
 */
export function judgeRun(
  state: RunState,
  expectations: RunExpectations,
  invariants: Pick<InvariantReport, 'violations'>,
): DemoCheck[] {
  return [
    ...orderChecks(state.orders),
    ...deadLetterChecks(state, expectations.drill),
    ...bookingChecks(state.orders),
    ...redeliveryChecks(state, expectations),
    {
      check: 'ledger-reconciled',
      what: state.ledger.clean ? '' : `reconciliation found ${state.ledger.mismatches} mismatches`,
    },
    ...invariants.violations.map((v) => ({
      check: `invariant ${v.rule}`,
      what: v.ids.length > 0 ? `${v.message}: ${list(v.ids)}` : v.message,
    })),
  ];
}

/** Each order at rest, moved to PAID once, and fulfilled once with its coupon. */
function orderChecks(orders: OrderState[]): DemoCheck[] {
  return [
    check(
      'run-at-rest',
      orders.filter(orderInFlight).map((o) => o.id),
      (ids) => `orders with events or a coupon grant still in flight: ${ids}`,
    ),
    check(
      'paid-once',
      orders.filter((o) => o.status !== 'PAID' || o.paidTransitions !== 1).map((o) => o.id),
      (ids) => `orders not moved to PAID exactly once: ${ids}`,
    ),
    check(
      'fulfilled-once',
      orders.filter((o) => o.fulfillmentStatus !== 'DONE' || !o.couponCode).map((o) => o.id),
      (ids) => `orders without one DONE fulfillment and its coupon: ${ids}`,
    ),
  ];
}

/** The drill's dead letters shown and replayed; no dead letter of the run left behind. */
function deadLetterChecks(state: RunState, drill: DeadLetterDrill | undefined): DemoCheck[] {
  return [
    ...(drill ? [{ check: 'dead-letter-drill', what: drillFailure(drill) }] : []),
    ...DEMO_CONSUMERS.map((consumer) =>
      check(
        `${consumer}-dead-letters-replayed`,
        lettersLeftBehind(state, consumer),
        (ids) => `dead letters left behind: ${ids}`,
      ),
    ),
  ];
}

/** One payment and one coupon journal per order. */
function bookingChecks(orders: OrderState[]): DemoCheck[] {
  return ['PAYMENT', 'COUPON_GRANT'].map((kind) =>
    check(
      `one-${kind.toLowerCase().replace('_', '-')}-journal-per-order`,
      orders
        .filter((o) => (o.journals[kind] ?? 0) !== 1)
        .map((o) => `${o.id} (${o.journals[kind] ?? 0})`),
      (ids) => `orders without exactly one ${kind} journal: ${ids}`,
    ),
  );
}

/** Each inbox counted at least the copies written back to the topics it reads. */
function redeliveryChecks(state: RunState, expectations: RunExpectations): DemoCheck[] {
  return DEMO_CONSUMERS.map((consumer) => {
    const { duplicatesAbsorbed } = tallyConsumer(state, consumer);
    const copies = copiesFor(expectations, consumer);
    return {
      check: `${consumer}-absorbed-redeliveries`,
      what:
        duplicatesAbsorbed >= copies
          ? ''
          : `${copies} copies were redelivered, its inbox counted ${duplicatesAbsorbed} duplicates`,
    };
  });
}

/** The copies the driver wrote back to the topics `consumer` reads. */
export function copiesFor(
  expectations: Pick<RunExpectations, 'republished' | 'consumerTopics'>,
  consumer: DemoConsumer,
): number {
  return expectations.consumerTopics[consumer].reduce(
    (sum, topic) => sum + (expectations.republished[topic] ?? 0),
    0,
  );
}

function check(name: string, offenders: string[], describe: (ids: string) => string): DemoCheck {
  return { check: name, what: offenders.length ? describe(list(offenders)) : '' };
}

/**
 * The verdict line: `demo: PASS ...` with what held, or `demo: FAIL <check>: <what>` for the
 * first failure.
 */
export function verdictLine(
  checks: DemoCheck[],
  state: Pick<RunState, 'orders' | 'deadLetters'>,
): string {
  const failed = checks.filter((c) => c.what !== '');
  if (failed.length === 0) {
    // Passing, every dead letter of the run was replayed and its event applied.
    const replayed = DEMO_CONSUMERS.reduce((n, c) => n + state.deadLetters[c].length, 0);
    const letters = replayed > 0 ? `, ${replayed} dead letters replayed` : '';
    return `demo: PASS ${state.orders.length} orders paid, fulfilled and booked once${letters}; ${checks.length} checks and the invariant checker hold`;
  }
  const more = failed.length > 1 ? ` (and ${failed.length - 1} more failed checks)` : '';
  return `demo: FAIL ${failed[0].check}: ${failed[0].what}${more}`;
}

/**
 * The consumer's dead letters of the run that are not behind it: not replayed (a replay that
 * failed again is a new dead letter, never replayed), or replayed without its event applied.
 */
function lettersLeftBehind(state: RunState, consumer: DemoConsumer): string[] {
  const applied = new Set(
    state.orders.flatMap((o) =>
      o.inbox[consumer].filter((r) => r.outcome === 'applied').map((r) => r.eventKey),
    ),
  );
  return state.deadLetters[consumer].flatMap((l) => {
    const name = `${l.eventKey ?? l.key} (${l.errorCode})`;
    if (l.replayedAt === null) return [`${name} not replayed`];
    return l.eventKey !== null && applied.has(l.eventKey) ? [] : [`${name} replayed, not applied`];
  });
}

/** Why the drill did not show the pattern ('' when it did: dead-lettered, then replayed). */
function drillFailure(drill: DeadLetterDrill): string {
  const order = `order ${drill.orderId} (paid in ${drill.currency})`;
  if (drill.deadLettered.length === 0)
    return `${drill.consumer} dead-lettered nothing of ${order} within the drill's wait`;
  if (drill.replayed < drill.deadLettered.length)
    return `${drill.replayed} of the ${drill.deadLettered.length} dead letters of ${order} replayed`;
  return '';
}

function list(items: string[], max = 5): string {
  return items.length > max
    ? `${items.slice(0, max).join(', ')} and ${items.length - max} more`
    : items.join(', ');
}
