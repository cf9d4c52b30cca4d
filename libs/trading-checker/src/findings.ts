import {
  INVARIANT_RULES,
  InvariantReport,
  InvariantRule,
  NotCheckable,
  Observations,
  Violation,
} from './invariant-report';

const KEPT_IDS = 1_000;
const LISTED = 1_000;

type Listed = Exclude<
  keyof Observations,
  'orders' | 'paidOrders' | 'topicMessages' | 'duplicateDeliveries'
>;

/**
 * What the passes found, kept in bounded memory: per rule the count and the first ids of
 * its violations, per rule and reason the count of what retention left uncomparable, and the
 * observation counters and (capped) lists.
 */
export class Findings {
  private readonly violations = new Map<InvariantRule, { count: number; ids: string[] }>();
  private readonly skipped = new Map<string, NotCheckable>();
  readonly observations: Observations = {
    orders: 0,
    paidOrders: 0,
    topicMessages: 0,
    duplicateDeliveries: 0,
    duplicatedEventKeys: [],
    deadOutboxRows: [],
    parkedEvents: [],
    deadLetteredEvents: [],
    inFlightEvents: [],
    unsentOutboxRows: [],
    pendingFulfillments: [],
  };

  /** One violation of `rule`, named by `id` (what an operator looks up). */
  violate(rule: InvariantRule, id: string): void {
    const entry = this.violations.get(rule) ?? { count: 0, ids: [] };
    entry.count += 1;
    if (entry.ids.length < KEPT_IDS) entry.ids.push(id);
    this.violations.set(rule, entry);
  }

  /** `count` comparisons of `rule` that retention made impossible, and why. */
  notCheckable(rule: InvariantRule, reason: string, count = 1): void {
    const key = `${rule}\n${reason}`;
    const entry = this.skipped.get(key) ?? { rule, reason, count: 0 };
    entry.count += count;
    this.skipped.set(key, entry);
  }

  list(observation: Listed, item: string, limit = LISTED): void {
    const items = this.observations[observation];
    if (items.length < limit) items.push(item);
  }

  report(): InvariantReport {
    const order = Object.keys(INVARIANT_RULES) as InvariantRule[];
    const violations: Violation[] = order
      .filter((rule) => this.violations.has(rule))
      .map((rule) => {
        const { count, ids } = this.violations.get(rule)!;
        return { rule, message: `${count} broken: ${INVARIANT_RULES[rule]}`, ids };
      });
    return {
      ok: violations.length === 0,
      checkedAt: new Date().toISOString(),
      violations,
      notCheckable: [...this.skipped.values()].sort(
        (a, b) => order.indexOf(a.rule) - order.indexOf(b.rule),
      ),
      observations: this.observations,
    };
  }
}
