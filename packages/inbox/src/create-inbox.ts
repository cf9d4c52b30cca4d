import { Logger, Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ResolvedInboxOptions } from './inbox.options';
import { INBOX_DATA_SOURCE, INBOX_OPTIONS } from './inbox.tokens';
import { InboxMetrics } from './metrics/inbox-metrics';
import { InboxDeadLetters } from './operations/inbox-dead-letters';
import { InboxHousekeeping } from './housekeeping/inbox-housekeeping';
import { InboxOperations } from './operations/inbox-operations';
import { InboxPipeline } from './transport/inbox-pipeline';
import { InboxMessageScope } from './transport/message-scope';
import { NestHandlers } from './handlers/nest-handlers';

/**
 * The module's factories: what InboxTransport runs messages through and what operators call,
 * built from the resolved options and the module's DataSource. The transport attaches Nest's
 * handlers to NestHandlers when it starts; until then nothing drains parked events.
 */
export const inboxPipelineProviders: Provider[] = [
  {
    provide: NestHandlers,
    inject: [INBOX_OPTIONS],
    useFactory: (options: ResolvedInboxOptions) => new NestHandlers(options.consumer),
  },
  {
    provide: InboxPipeline,
    inject: [
      INBOX_OPTIONS,
      INBOX_DATA_SOURCE,
      InboxMetrics,
      NestHandlers,
      { token: InboxMessageScope, optional: true },
    ],
    useFactory: (
      options: ResolvedInboxOptions,
      dataSource: DataSource,
      metrics: InboxMetrics,
      handlers: NestHandlers,
      scope?: InboxMessageScope,
    ) => new InboxPipeline(options, dataSource, metrics, handlers, scope ?? undefined),
  },
  InboxDeadLetters,
  {
    provide: InboxOperations,
    inject: [INBOX_OPTIONS, INBOX_DATA_SOURCE, InboxMetrics, InboxDeadLetters, InboxPipeline],
    useFactory: (
      options: ResolvedInboxOptions,
      dataSource: DataSource,
      metrics: InboxMetrics,
      deadLetters: InboxDeadLetters,
      pipeline: InboxPipeline,
    ) => new InboxOperations(options, dataSource, metrics, deadLetters, () => pipeline.drainer()),
  },
  {
    provide: InboxHousekeeping,
    inject: [INBOX_OPTIONS, INBOX_DATA_SOURCE, InboxPipeline, InboxOperations, InboxMetrics],
    useFactory: (
      options: ResolvedInboxOptions,
      dataSource: DataSource,
      pipeline: InboxPipeline,
      operations: InboxOperations,
      metrics: InboxMetrics,
    ) =>
      new InboxHousekeeping(
        options,
        dataSource,
        pipeline.store,
        pipeline.processor,
        operations,
        metrics,
        // Its lines keep the context they had when the transport ran the timers.
        new Logger('InboxTransport'),
      ),
  },
];
