import { DynamicModule, ExistingProvider, FactoryProvider, Module, Provider } from '@nestjs/common';
import { dataSourceProvider, SchemaProbe } from '@outbox-inbox/database';
import { DataSource } from 'typeorm';
import { createInbox, Inbox } from './create-inbox';
import {
  INBOX_ASYNC_OPTIONS_TYPE,
  INBOX_MODULE_OPTIONS,
  INBOX_OPTIONS_TYPE,
  InboxConfigurableModule,
  InboxModuleExtras,
} from './inbox.module-definition';
import { InboxModuleOptions, ResolvedInboxOptions, resolveInboxOptions } from './inbox.options';
import { InboxReadPorts } from './inbox-stats.port';
import { probeInboxSchema } from './inbox-schema';
import { INBOX, INBOX_DATA_SOURCE, INBOX_OPTIONS } from './inbox.tokens';
import { InboxMetrics } from './metrics/inbox-metrics';
import { InboxDeadLetters } from './operations/inbox-dead-letters';
import { InboxOperations } from './operations/inbox-operations';
import { INBOX_HOOKS, InboxHooks } from './transport/inbox-hooks';
import { InboxMessageScope } from './transport/message-scope';
import { InboxTransport } from './transport/inbox-transport';

export type { InboxModuleExtras } from './inbox.module-definition';

/**
 * Provides the InboxTransport, InboxOperations and InboxDeadLetters (the /inbox HTTP API is
 * InboxHttpModule, from `@outbox-inbox/inbox/http`). Works on the app's
 * TypeORM DataSource (or the one `dataSource` names). Options are validated at start:
 * `forRoot(options)` when it is called, `forRootAsync({ useFactory, inject, imports })` when
 * the factory has run. Every part is built by createInbox (create-inbox.ts).
 */
@Module({})
export class InboxModule extends InboxConfigurableModule {
  static forRoot(options: typeof INBOX_OPTIONS_TYPE): DynamicModule {
    resolveInboxOptions(options); // fail at wiring time, not at bootstrap
    return withInbox(super.forRoot(options), options);
  }

  static forRootAsync(options: typeof INBOX_ASYNC_OPTIONS_TYPE): DynamicModule {
    return withInbox(super.forRootAsync(options), options);
  }
}

function withInbox(definition: DynamicModule, extras: InboxModuleExtras): DynamicModule {
  return {
    ...definition,
    global: true,
    providers: [
      ...(definition.providers ?? []),
      dataSourceProvider(INBOX_DATA_SOURCE, extras.dataSource),
      {
        provide: INBOX_OPTIONS,
        inject: [INBOX_MODULE_OPTIONS],
        useFactory: (options: InboxModuleOptions) => resolveInboxOptions(options),
      },
      {
        provide: INBOX,
        inject: [
          INBOX_OPTIONS,
          INBOX_DATA_SOURCE,
          { token: InboxMessageScope, optional: true },
          { token: INBOX_HOOKS, optional: true },
        ],
        useFactory: (
          options: ResolvedInboxOptions,
          dataSource: DataSource,
          scope?: InboxMessageScope,
          hooks?: InboxHooks,
        ) =>
          createInbox({
            options,
            dataSource,
            scope: scope ?? undefined,
            hooks: hooks ?? undefined,
          }),
      },
      part(InboxTransport, (inbox) => inbox.transport),
      part(InboxOperations, (inbox) => inbox.operations),
      part(InboxDeadLetters, (inbox) => inbox.deadLetters),
      part(InboxMetrics, (inbox) => inbox.metrics),
      ...readPorts,
    ],
    exports: [
      INBOX_OPTIONS,
      InboxOperations,
      InboxDeadLetters,
      InboxTransport,
      InboxMetrics,
      ...readPorts.map((p) => p.provide),
    ],
  };
}

/** Provides one part of the inbox createInbox built, under its class. */
function part<T>(token: abstract new (...args: never[]) => T, pick: (inbox: Inbox) => T): Provider {
  return { provide: token, inject: [INBOX], useFactory: pick };
}

/**
 * The read-only ports (InboxReadPorts) under their names, for readers that know this
 * package's types only: monitoring injects `'InboxCounters'`, never InboxMetrics itself.
 */
const readPorts: Array<(ExistingProvider | FactoryProvider) & { provide: keyof InboxReadPorts }> = [
  { provide: 'InboxCounters', useExisting: InboxMetrics },
  { provide: 'InboxStatsSource', useExisting: InboxOperations },
  {
    provide: 'InboxSchemaProbe',
    inject: [INBOX_DATA_SOURCE],
    useFactory: (dataSource: DataSource): SchemaProbe => ({
      faults: () => probeInboxSchema(dataSource),
    }),
  },
];
