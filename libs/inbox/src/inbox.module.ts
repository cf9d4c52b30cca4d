import { DynamicModule, Module } from '@nestjs/common';
import { InboxModuleOptions, resolveInboxOptions } from './inbox.options';
import { INBOX_OPTIONS } from './inbox.tokens';
import { InboxOperations } from './operations/inbox-operations';
import { InboxHttpController } from './operations/inbox.http.controller';
import { InboxMetrics } from './transport/inbox-metrics';
import { InboxTransport } from './transport/inbox-transport';

/**
 * Provides the InboxTransport, InboxOperations and the /inbox HTTP API. Needs the app's
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
        InboxOperations,
        InboxTransport,
      ],
      exports: [INBOX_OPTIONS, InboxOperations, InboxTransport, InboxMetrics],
    };
  }
}
