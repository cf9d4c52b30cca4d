import { allowsMultipleStatements } from '@outbox-inbox/database';
import { LoggerService } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DeadLetterPublisher } from '../dead-letter/dead-letter-publisher';
import { isNewerSchema } from '../decode-event';
import { InboxBatchProcessor } from '../apply/inbox-batch-processor';
import { InboxBatchStore } from '../apply/mysql-inbox-batch-store';
import { InboxProcessor } from '../apply/inbox-processor';
import { InboxStore } from '../apply/mysql-inbox-store';
import { ResolvedInboxOptions } from '../inbox.options';
import { InboxMetrics } from '../metrics/inbox-metrics';
import { DrainParked } from '../operations/skip-version';
import { MessageRunner } from './message-runner';
import { InboxMessageScope } from './message-scope';
import { NestHandlers } from '../handlers/nest-handlers';

/**
 * What a message goes through once the transport has it: the inbox store, the version gate
 * and its batched twin, Nest's handlers; the MessageRunner on top, once the transport has a
 * producer for its dead letters. Built by the module (create-inbox.ts).
 */
export class InboxPipeline {
  readonly store: InboxStore;
  readonly processor: InboxProcessor;
  private readonly batchProcessor: InboxBatchProcessor;

  constructor(
    private readonly options: ResolvedInboxOptions,
    private readonly dataSource: DataSource,
    private readonly metrics: InboxMetrics,
    private readonly handlers: NestHandlers,
    /** The app's scope to settle each message in, when it provides one. */
    private readonly scope?: InboxMessageScope,
  ) {
    this.store = new InboxStore(options.consumer, allowsMultipleStatements(dataSource));
    const lookup = (eventType: string) => handlers.handlerFor(eventType);
    // An event of a newer schema than this process knows is held (parked) when a handler of
    // this consumer would apply it; a type nobody here handles is recorded and skipped.
    const holds: ConstructorParameters<typeof InboxProcessor>[2] = (envelope) =>
      lookup(envelope.eventType) !== undefined && isNewerSchema(envelope, options.registry);
    this.processor = new InboxProcessor(this.store, lookup, holds);
    this.batchProcessor = new InboxBatchProcessor(
      this.store,
      new InboxBatchStore(options.consumer),
      this.processor,
      lookup,
    );
  }

  /** Settles messages; its dead letters go out through `deadLetters`. */
  runner(
    deadLetters: DeadLetterPublisher,
    log: LoggerService,
    isStopping: () => boolean,
  ): MessageRunner {
    return new MessageRunner(
      this.dataSource,
      this.processor,
      this.batchProcessor,
      deadLetters,
      this.options,
      this.metrics,
      log,
      isStopping,
      this.scope,
    );
  }

  /** Drains an aggregate's parked events; undefined until Nest's handlers are attached. */
  drainer(): DrainParked | undefined {
    if (!this.handlers.attached) return undefined;
    return (manager, type, id) => this.processor.drainReady(manager, type, id);
  }
}
