/**
 * Test support for adopters: the contract suites of the outbox's ports, which every
 * implementation must pass (runOutboxPublisherContract, runOutboxStoreContract: a fixture and
 * the fault features it can inject), and the in-memory twins that pass them without faults.
 * The suites take their test functions from the runner's globals (Jest's; Vitest's with
 * `globals: true`) or as their last argument, so this entry point loads without any test
 * runner (the relay benchmark, a script, takes the twins and the claim SQL from it).
 */
export { runOutboxPublisherContract } from './outbox-publisher.contract';
export type {
  OutboxPublisherFeature,
  OutboxPublisherFixture,
  OutboxPublisherUnderTest,
  ReceivedMessage,
} from './outbox-publisher.contract';
export { runOutboxStoreContract } from './outbox-store.contract';
export type {
  OutboxClaimTuning,
  OutboxOutcomeTuning,
  OutboxRowState,
  OutboxStoreFeature,
  OutboxStoreFixture,
  OutboxStoreUnderTest,
  OutboxTestEvent,
} from './outbox-store.fixture';
/** The in-memory twin of the publisher port: records acknowledged sends; `around` shapes each send. */
export { InMemoryOutboxPublisher } from './in-memory-outbox-publisher';
export type { AroundSend, InMemoryOutboxPublisherOptions } from './in-memory-outbox-publisher';
/** The in-memory twin of t_outbox: claims, outcomes, requeue and retention. */
export { InMemoryOutboxStore } from './in-memory-outbox-store';
/** The statements of t_outbox for a DataSource's engine, so a test can EXPLAIN them on its data. */
export { outboxSqlOf } from '../store/sql/outbox-sql-of';
export type { OutboxQuery, OutboxSql } from '../store/sql/outbox-sql';
