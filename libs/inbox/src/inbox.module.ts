import { DynamicModule, Module } from '@nestjs/common';
import { inboxPipelineProviders } from './inbox-pipeline.factory';
import { InboxModuleOptions, resolveInboxOptions } from './inbox.options';
import { INBOX_OPTIONS } from './inbox.tokens';
import { InboxDeadLetters } from './operations/inbox-dead-letters';
import { InboxOperations } from './operations/inbox-operations';
import { InboxHttpController } from './operations/inbox.http.controller';
import { InboxMetrics } from './metrics/inbox-metrics';
import { InboxTransport } from './transport/inbox-transport';

/**
 * Provides the InboxTransport, InboxOperations, InboxDeadLetters and the /inbox HTTP API. Needs the app's
 * TypeORM DataSource in DI (TypeOrmModule.forRoot). Options are validated here, at start.
 */
@Module({})
export class InboxModule {
  static forRoot(options: InboxModuleOptions): DynamicModule {
    const resolved = resolveInboxOptions(options);
    return {
      module: InboxModule,
      global: true,
      controllers: [InboxHttpController],
      providers: [
        { provide: INBOX_OPTIONS, useValue: resolved },
        { provide: InboxMetrics, useValue: new InboxMetrics(resolved.blockedBackoff) },
        ...inboxPipelineProviders,
        InboxTransport,
      ],
      exports: [INBOX_OPTIONS, InboxOperations, InboxDeadLetters, InboxTransport, InboxMetrics],
    };
  }
}
