import { DataSource } from 'typeorm';
import { HandlerLookup } from '../apply/inbox-handler.port';
import { InboxBatchProcessor } from '../apply/inbox-batch-processor';
import { HoldRule } from '../apply/inbox-processor';
import { inboxStoresOf } from '../create-inbox';
import { NestHandlers } from '../handlers/nest-handlers';
import { InMemoryInboxDatabase } from './in-memory-inbox-database';
import { InMemoryInboxTransaction } from './in-memory-inbox-tables';
import { RecordingInboxProcessor } from './recording-inbox-processor';

/** What InboxTestHarness's runner works on: its transactions and the apply step. */
export interface HarnessApplyStep {
  /** Where each delivery's transaction runs. */
  dataSource: DataSource;
  processor: RecordingInboxProcessor;
  batchProcessor: InboxBatchProcessor;
}

/** The apply step and the runner's transactions, as the module's: on the app's DataSource. */
export function applyStepOn(
  dataSource: DataSource,
  consumer: string,
  handlers: NestHandlers,
  hold: HoldRule,
): HarnessApplyStep {
  const { store, batchStore } = inboxStoresOf(dataSource, consumer);
  const processor = new RecordingInboxProcessor(store, handlers, hold);
  const batchProcessor = new InboxBatchProcessor({
    store,
    batchStore,
    single: processor,
    handlers,
  });
  return { dataSource, processor, batchProcessor };
}

/**
 * The apply step on the in-memory twin's stores, and the twin's transactions where the runner
 * takes a DataSource. The runner uses nothing of a DataSource but `transaction`, and hands
 * the transaction on to the processor untouched; the handlers receive it as their manager.
 * Hence the casts: the types say EntityManager, the values are the twin's transactions.
 */
export function applyStepOnTwin(
  database: InMemoryInboxDatabase,
  consumer: string,
  handlers: NestHandlers,
  hold: HoldRule,
): HarnessApplyStep {
  const twinHandlers = handlers as unknown as HandlerLookup<InMemoryInboxTransaction>;
  const store = database.store(consumer);
  const processor = new RecordingInboxProcessor(store, twinHandlers, hold);
  const batchProcessor = new InboxBatchProcessor({
    store,
    batchStore: database.batchStore(consumer),
    single: processor,
    handlers: twinHandlers,
  });
  const transactions = {
    transaction: <T>(work: (tx: InMemoryInboxTransaction) => Promise<T>) =>
      database.transaction(work),
  };
  return {
    dataSource: transactions as unknown as DataSource,
    processor: processor as unknown as RecordingInboxProcessor,
    batchProcessor: batchProcessor as unknown as InboxBatchProcessor,
  };
}
