/** Where a deployment keeps its state, and how to build that from its settings. */
export { invariantTargets } from './invariant-targets';
export type { ConsumerTarget, DeploymentSettings, InvariantTargets } from './invariant-targets';
/** Reads a deployment and checks every promise; or checks a snapshot already read. */
export { checkInvariants, evaluateInvariants } from './check-invariants';
export type { CheckOptions } from './check-invariants';
/** The report: violations (rule, message, offending ids) and observations. */
export type { InvariantReport, InvariantRule, Observations, Violation } from './invariant-report';
/** The report as terminal text. */
export { formatInvariantReport } from './format-report';
/** The data the rules read, for building snapshots in tests. */
export type * from './snapshot';
/** Reads a deployment into a snapshot (downstream first, so a live system raises no false alarm). */
export { readSnapshot } from './read-snapshot';
