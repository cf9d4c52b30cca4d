/**
 * Test support for adopters: the contract suite of the inbox store, which every implementation
 * must pass (runInboxStoreContract: a fixture and the fault features it can inject), the port
 * it states, and the in-memory twin that passes it without faults. The suite takes its test
 * functions from the runner's globals (Jest's; Vitest's with `globals: true`) or as its last
 * argument, so this entry point loads without any test runner.
 */
export { runInboxStoreContract } from './inbox-store.contract';
export type {
  GateRowState,
  InboxRowState,
  InboxStoreFeature,
  InboxStoreFixture,
  InboxStoreUnderTest,
  InboxTables,
  ParkedRowState,
} from './inbox-store.fixture';
/** The port the suite states: what the apply step needs of the database, one consumer's rows. */
export type {
  Admission,
  AggregateRef,
  GateRow,
  InboxBatchStore,
  InboxStore,
  ParkedEvent,
  StoredOutcome,
} from '../apply/inbox-store.port';
/** The in-memory twin of the inbox's tables: per-consumer stores, transactions one at a time. */
export { InMemoryInboxDatabase } from './in-memory-inbox-database';
export { InMemoryInboxTransaction } from './in-memory-inbox-tables';
/**
 * For an application's own tests (needs no test runner): hands events to the app's handlers
 * through the real inbox path, in process and without Kafka, and says what became of each.
 */
export { InboxTestHarness } from './inbox-test-harness';
export type {
  DeliverAt,
  HarnessDelivery,
  InboxDeliveryResult,
  InboxTestHarnessOptions,
} from './inbox-test-harness';
/** A message the harness's inbox dead-lettered, and why. */
export type { CapturedDeadLetter } from './captured-dead-letters';
/** Why and where a message failed, as its dead letter's inbox-* headers say. */
export type { DeadLetterReason } from '../dead-letter/dead-letter-headers';
/**
 * Fault-injection and measuring points (after a message's transaction committed, before its
 * offset commit), handed to the app's InboxModule by a module of the test's own.
 */
export { InboxHooksModule } from './inbox-hooks.module';
export type { InboxHooks } from '../transport/inbox-hooks';
