import { InvariantReport } from './invariant-report';
import { InvariantTargets } from './invariant-targets';
import { observe } from './observe';
import { readSnapshot } from './read-snapshot';
import {
  couponPerDoneFulfillment,
  fulfillmentPerPaidOrder,
  oneGrantPerKey,
} from './rules/fulfillment.rules';
import { everyEventAccountedFor, versionsAppliedInOrder } from './rules/inbox.rules';
import {
  balancedJournals,
  balancesMatchLines,
  couponGrantJournals,
  paymentJournalPerPaidOrder,
} from './rules/ledger.rules';
import { orderPaidEvents, sentEventsInTopics } from './rules/outbox.rules';
import { nothingInFlight } from './rules/quiescence.rules';
import { Rule } from './rules/rule-context';
import { Snapshot } from './snapshot';

/** How strict a check is. */
export interface CheckOptions {
  /** The deployment is at rest: anything still in flight is a violation. Default false. */
  quiescent?: boolean;
}

const RULES: Rule[] = [
  orderPaidEvents,
  sentEventsInTopics,
  fulfillmentPerPaidOrder,
  couponPerDoneFulfillment,
  oneGrantPerKey,
  paymentJournalPerPaidOrder,
  couponGrantJournals,
  balancedJournals,
  balancesMatchLines,
  versionsAppliedInOrder,
  everyEventAccountedFor,
  nothingInFlight,
];

/** Applies every rule to a snapshot already read (pure; the unit tests' entry point). */
export function evaluateInvariants(
  snapshot: Snapshot,
  options: CheckOptions = {},
): InvariantReport {
  const context = { snapshot, quiescent: options.quiescent ?? false };
  const violations = RULES.flatMap((rule) => rule(context));
  return {
    ok: violations.length === 0,
    checkedAt: new Date().toISOString(),
    violations,
    observations: observe(snapshot),
  };
}

/** Reads every service's state and the topics of a deployment and checks the promises. */
export async function checkInvariants(
  targets: InvariantTargets,
  options: CheckOptions = {},
): Promise<InvariantReport> {
  return evaluateInvariants(await readSnapshot(targets), options);
}
