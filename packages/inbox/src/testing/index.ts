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
