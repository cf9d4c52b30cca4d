/** Where a deployment keeps its state, and how to build that from its settings. */
export { invariantTargets } from './invariant-targets';
export type {
  ConsumerTarget,
  DeploymentSettings,
  InvariantTargets,
  KafkaSecurity,
} from './invariant-targets';
/**
 * Reads a deployment (its targets, or its settings: mysqlUrl, kafkaBrokers, databasePrefix,
 * topicPrefix, quiescent) and checks every promise, streaming: memory does not grow with history.
 */
export { checkInvariants } from './check-invariants';
export type { CheckOptions } from './check-invariants';
/** The rules with what each compares; the report: violations, not checkable counts, observations. */
export { INVARIANT_RULES } from './invariant-report';
export type {
  InvariantReport,
  InvariantRule,
  NotCheckable,
  Observations,
  Violation,
} from './invariant-report';
/** The report as terminal text. */
export { formatInvariantReport } from './format-report';
/** Applies the order rules to one batch of facts (for unit tests of the rules). */
export { checkOrderBatch } from './passes/order.pass';
export type * from './order-batch';
/** Collects violations and counts in bounded memory (for unit tests of the rules). */
export { Findings } from './findings';
