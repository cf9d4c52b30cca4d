import { aggregateRef } from '../store/outbox-row';

/** An unsent row of the same aggregate that is not part of this claim. */
export interface EarlierUnsent {
  aggregateType: string;
  aggregateId: string;
  aggregateVersion: number;
  /** Milliseconds until that row is due again (negative or 0: due now). */
  dueInMs: number;
  dead: boolean;
}

/** Which candidates may be sent now, in which order, and which must wait and how long. */
export interface BatchPlan<C> {
  /** Sorted by aggregate, then version ascending. */
  sendable: C[];
  held: Array<{ row: C; retryInMs: number }>;
}

type Candidate = { aggregateType: string; aggregateId: string; aggregateVersion: number };

/**
 * Per-aggregate order: a candidate may be sent only when no unsent row of its aggregate with
 * a lower version exists outside the claim (such rows are given in `earlier`). Sendable rows
 * come out sorted by version within their aggregate, so one produce request carries them in
 * order to their (shared) partition. Held rows are re-examined after the earlier row is due
 * again, or after `blockedRecheckMs` / `deadBlockedRecheckMs`.
 */
export function planBatch<C extends Candidate>(
  candidates: C[],
  earlier: EarlierUnsent[],
  recheck: { blockedRecheckMs: number; deadBlockedRecheckMs: number },
): BatchPlan<C> {
  const firstBlocker = new Map<string, EarlierUnsent>();
  for (const row of earlier) {
    const ref = aggregateRef(row);
    const current = firstBlocker.get(ref);
    if (!current || row.aggregateVersion < current.aggregateVersion) firstBlocker.set(ref, row);
  }
  const plan: BatchPlan<C> = { sendable: [], held: [] };
  for (const row of candidates) {
    const blocker = firstBlocker.get(aggregateRef(row));
    if (!blocker || blocker.aggregateVersion > row.aggregateVersion) {
      plan.sendable.push(row);
    } else {
      const retryInMs = blocker.dead
        ? recheck.deadBlockedRecheckMs
        : Math.max(recheck.blockedRecheckMs, blocker.dueInMs);
      plan.held.push({ row, retryInMs });
    }
  }
  plan.sendable.sort(
    (a, b) =>
      compare(a.aggregateType, b.aggregateType) ||
      compare(a.aggregateId, b.aggregateId) ||
      a.aggregateVersion - b.aggregateVersion,
  );
  return plan;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
