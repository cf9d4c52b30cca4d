/**
 * Test support that the contract suites of `@outbox-inbox/outbox/testing` and
 * `@outbox-inbox/inbox/testing` share; it needs no test runner, so it loads outside Jest too.
 */
/** Polls a check until it passes or a timeout ends: waits for an outcome, never a fixed time. */
export { eventually } from './eventually';
/** Runs a contract case when the fixture declares its fault feature, and skips it otherwise. */
export { featureGate } from './feature-gate';
/** The test functions a contract suite takes: from the runner's globals, or passed in. */
export { runnerGlobals } from './contract-runner';
export type { ContractIt, ContractMatchers, ContractRunner } from './contract-runner';
