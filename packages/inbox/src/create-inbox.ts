import { kafkaClient } from '@outbox-inbox/messaging';
import { checkInboxOnStart } from './start-check/inbox-start-check';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { holdNewerSchema } from './apply/hold-newer-schema';
import { InboxBatchProcessor } from './apply/inbox-batch-processor';
import { InboxProcessor } from './apply/inbox-processor';
import { InboxBatchStore, InboxStore } from './apply/inbox-store.port';
import { SqlInboxBatchStore } from './apply/sql-inbox-batch-store';
import { SqlInboxStore } from './apply/sql-inbox-store';
import { inboxApplySqlOf } from './apply/sql/inbox-apply-sql-of';
import { DeadLetterPublisher } from './dead-letter/dead-letter-publisher';
import { NestHandlers } from './handlers/nest-handlers';
import { InboxHousekeeping } from './housekeeping/inbox-housekeeping';
import { ResolvedInboxOptions } from './inbox.options';
import { InboxMetrics } from './metrics/inbox-metrics';
import { InboxDeadLetters } from './operations/inbox-dead-letters';
import { InboxOperations } from './operations/inbox-operations';
import { MessageRunner } from './transport/message-runner';
import { InboxHooks } from './transport/inbox-hooks';
import { InboxMessageScope } from './transport/message-scope';
import { InboxTransport } from './transport/inbox-transport';

/** What the inbox is built from: InboxModule resolves each of them. */
export interface InboxSources {
  options: ResolvedInboxOptions;
  /** The DataSource holding the inbox tables; handlers write their effects in its transactions. */
  dataSource: DataSource;
  /** The app's scope to settle each message in, when it provides one. */
  scope?: InboxMessageScope;
  /** Test hooks (InboxHooksModule of `/testing`); an application provides none. */
  hooks?: InboxHooks;
}

/** The parts of an inbox that the module provides to the app. */
export interface Inbox {
  transport: InboxTransport;
  operations: InboxOperations;
  deadLetters: InboxDeadLetters;
  metrics: InboxMetrics;
}

/**
 * Builds one consumer's inbox, every part of it, in the order a message meets them: Nest's
 * handlers, the apply step (store, version gate, processors), the runner that settles a
 * message (transaction, retries, dead letter), the transport that feeds it from Kafka; then
 * what operators call, and the housekeeping timers. InboxModule calls it once.
 */
export function createInbox({ options, dataSource, scope, hooks }: InboxSources): Inbox {
  // Counters of this process since start, which every part below adds to.
  const metrics = new InboxMetrics(options.blockedBackoff);

  // The handlers Nest registers on the transport. Until the transport attaches them when it
  // starts, no event type has a handler, and nothing may drain parked events.
  const handlers = new NestHandlers(options.consumer);

  // The apply step, in the caller's transaction: the inbox row (a duplicate stops there), the
  // version gate, the handler, the parked successors. An event of a newer schema than this
  // process knows is held (parked) when one of its handlers would apply it.
  const { store, batchStore } = inboxStoresOf(dataSource, options.consumer);
  const processor = new InboxProcessor(
    store,
    handlers,
    holdNewerSchema(handlers, options.registry),
  );
  const batchProcessor = new InboxBatchProcessor({
    store,
    batchStore,
    single: processor,
    handlers,
  });

  // One message (or one batch of a partition): decode, one transaction retried whole, or the
  // dead-letter topic when it cannot be applied. The transport connects the dead-letter
  // producer each time it starts its consumer.
  const kafka = kafkaClient(options.kafka);
  const deadLetterPublisher = new DeadLetterPublisher(kafka, options.deadLetterTopic);
  const runner = new MessageRunner({
    options,
    dataSource,
    processor,
    batchProcessor,
    deadLetters: deadLetterPublisher,
    metrics,
    logger: new Logger(MessageRunner.name),
    scope,
    hooks,
  });

  // What operators call: stats, gaps, deliveries, gap skips, pruning; the dead letters.
  const deadLetters = new InboxDeadLetters(options, dataSource);
  const operations = new InboxOperations({
    options,
    dataSource,
    metrics,
    deadLetters,
    drain: processor,
    handlers,
  });

  // The timers the transport starts once its consumer joined: open gaps logged, old inbox rows
  // pruned, parked events whose turn has come drained.
  const housekeeping = new InboxHousekeeping({
    options,
    dataSource,
    store,
    processor,
    operations,
    metrics,
    log: new Logger(InboxHousekeeping.name),
  });

  // Kafka in: consumes, settles each message with the runner, commits offsets, pauses a
  // blocked partition; attaches Nest's handlers and runs the housekeeping while it runs.
  const transport = new InboxTransport({
    options,
    kafka,
    metrics,
    handlers,
    runner,
    deadLetters: deadLetterPublisher,
    housekeeping,
    startCheck: () => checkInboxOnStart(options, dataSource, kafka),
  });

  return { transport, operations, deadLetters, metrics };
}

/**
 * The stores of `consumer`'s inbox, with the statements of `dataSource`'s engine (its TypeORM
 * type: mysql, mariadb or postgres; any other is refused, naming it). They are SQL text only:
 * choosing them loads no driver.
 */
export function inboxStoresOf(
  dataSource: DataSource,
  consumer: string,
): { store: InboxStore; batchStore: InboxBatchStore } {
  const sql = inboxApplySqlOf(dataSource);
  return {
    store: new SqlInboxStore(consumer, sql),
    batchStore: new SqlInboxBatchStore(consumer, sql),
  };
}
