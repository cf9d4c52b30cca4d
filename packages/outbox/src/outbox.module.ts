import {
  DynamicModule,
  ExistingProvider,
  FactoryProvider,
  Global,
  Logger,
  Module,
  Provider,
} from '@nestjs/common';
import { dataSourceProvider, SchemaProbe, sqlDialectOf } from '@outbox-inbox/database';
import { kafkaConnectionProblems } from '@outbox-inbox/messaging';
import { DataSource } from 'typeorm';
import { OutboxError } from './outbox.errors';
import { OutboxCommitNotifier } from './writer/outbox-commit-notifier';
import { commitWakeUp, listenNotifyChannel } from './relay/listen-notify-wake-up';
import {
  OUTBOX_ASYNC_OPTIONS_TYPE,
  OUTBOX_DATA_SOURCE,
  OUTBOX_MODULE_OPTIONS,
  OUTBOX_OPTIONS_TYPE,
  OutboxConfigurableModule,
  OutboxModuleExtras,
  OutboxModuleOptions,
} from './outbox.module-definition';
import { OutboxOperations } from './operations/outbox-operations';
import { OutboxReadPorts } from './outbox-stats.port';
import { probeOutboxSchema } from './outbox-schema';
import { defaultInstanceId } from './relay/create-outbox-relay';
import { kafkajsPublisher } from './publisher/kafka-outbox-publisher';
import { OutboxClaimer } from './relay/outbox-claimer';
import { OutboxFinalizer } from './relay/outbox-finalizer';
import { OutboxRelay } from './relay/outbox-relay';
import { relayPool } from './relay/relay-connections';
import { resolveRelayOptions } from './relay/outbox-relay.options';
import { OutboxWriter } from './writer/outbox-writer';
import { OutboxStartCheck } from './start-check/outbox-start-check';
import { DEFAULT_RETENTION, OutboxRetention } from './housekeeping/outbox-retention';

export type { OutboxModuleExtras, OutboxModuleOptions } from './outbox.module-definition';

/**
 * The outbox for one service: OutboxWriter, OutboxRelay (started on bootstrap, stopped
 * gracefully on shutdown), OutboxOperations and OutboxRetention (the /outbox HTTP endpoints
 * are OutboxHttpModule, from `@outbox-inbox/outbox/http`). Global; works on
 * the app's TypeORM DataSource (or the one `dataSource` names), whose migrations must include
 * OutboxMigrations. `forRoot(options)` or `forRootAsync({ useFactory, inject, imports })`.
 */
@Global()
@Module({})
export class OutboxModule extends OutboxConfigurableModule {
  static forRoot(options: typeof OUTBOX_OPTIONS_TYPE): DynamicModule {
    checkModuleOptions(options); // fail at wiring time, not at bootstrap
    return withOutbox(super.forRoot(options), options);
  }

  static forRootAsync(options: typeof OUTBOX_ASYNC_OPTIONS_TYPE): DynamicModule {
    return withOutbox(super.forRootAsync(options), options);
  }
}

/**
 * Validates the options (Kafka when the relay runs here, topic mapping, relay tuning); returns
 * the relay options.
 */
function checkModuleOptions(options: OutboxModuleOptions): ReturnType<typeof resolveRelayOptions> {
  const relayRuns = options.relay?.enabled !== false;
  const problems = relayRuns || options.kafka ? kafkaConnectionProblems(options.kafka) : [];
  if (typeof options.topicFor !== 'function') problems.push('topicFor must be a function');
  const check = options.checkOnStart;
  if (typeof check === 'object' && check.aggregateTypes?.length && !options.kafka) {
    problems.push('checkOnStart.aggregateTypes needs kafka settings to look the topics up');
  }
  if (options.tracing !== undefined && typeof options.tracing?.publish !== 'function') {
    problems.push('tracing must be a MessageTracing (capture, publish)');
  }
  if (problems.length > 0) {
    throw new OutboxError('OUTBOX_INVALID_OPTIONS', `OutboxModule options: ${problems.join('; ')}`);
  }
  return resolveRelayOptions(relayTuning(options));
}

function relayTuning(options: OutboxModuleOptions) {
  const { enabled: _enabled, ...tuning } = options.relay ?? {};
  return tuning;
}

function withOutbox(definition: DynamicModule, extras: OutboxModuleExtras): DynamicModule {
  return {
    ...definition,
    providers: [
      ...(definition.providers ?? []),
      dataSourceProvider(OUTBOX_DATA_SOURCE, extras.dataSource),
      ...outboxProviders,
      ...readPorts,
    ],
    exports: [OutboxWriter, OutboxRelay, OutboxOperations, ...readPorts.map((p) => p.provide)],
  };
}

/**
 * The read-only ports (OutboxReadPorts) under their names, for readers that know this
 * package's types only: monitoring injects `'OutboxRelayStats'`, never the relay itself.
 */
const readPorts: Array<(ExistingProvider | FactoryProvider) & { provide: keyof OutboxReadPorts }> =
  [
    { provide: 'OutboxRelayStats', useExisting: OutboxRelay },
    { provide: 'OutboxStatsSource', useExisting: OutboxOperations },
    {
      provide: 'OutboxSchemaProbe',
      inject: [OUTBOX_DATA_SOURCE],
      useFactory: (dataSource: DataSource): SchemaProbe => ({
        faults: () => probeOutboxSchema(dataSource),
      }),
    },
  ];

/** Validated relay options, built once from the module options. */
const RELAY_OPTIONS = Symbol('OUTBOX_RELAY_OPTIONS');

const outboxProviders: Provider[] = [
  {
    provide: RELAY_OPTIONS,
    inject: [OUTBOX_MODULE_OPTIONS],
    useFactory: (options: OutboxModuleOptions) => checkModuleOptions(options),
  },
  {
    provide: OutboxStartCheck,
    inject: [OUTBOX_MODULE_OPTIONS, OUTBOX_DATA_SOURCE],
    useFactory: (options: OutboxModuleOptions, dataSource: DataSource) =>
      new OutboxStartCheck(options, dataSource),
  },
  {
    provide: OutboxCommitNotifier,
    inject: [OUTBOX_MODULE_OPTIONS, OUTBOX_DATA_SOURCE],
    useFactory: (options: OutboxModuleOptions, dataSource: DataSource) => {
      const notifyChannel = listenNotifyChannel(options.listenNotify);
      if (notifyChannel !== undefined && !sqlDialectOf(dataSource).notifications) {
        throw new Error(
          `OutboxModule: listenNotify needs PostgreSQL; this DataSource is "${dataSource.options.type}"`,
        );
      }
      const notifier = new OutboxCommitNotifier({ notifyChannel });
      dataSource.subscribers.push(notifier);
      return notifier;
    },
  },
  {
    provide: OutboxWriter,
    inject: [OUTBOX_MODULE_OPTIONS, OutboxCommitNotifier],
    useFactory: (options: OutboxModuleOptions, notifier: OutboxCommitNotifier) =>
      new OutboxWriter(notifier, options.tracing),
  },
  {
    provide: OutboxRelay,
    inject: [OUTBOX_MODULE_OPTIONS, RELAY_OPTIONS, OUTBOX_DATA_SOURCE, OutboxCommitNotifier],
    useFactory: (
      options: OutboxModuleOptions,
      resolved: ReturnType<typeof resolveRelayOptions>,
      dataSource: DataSource,
      notifier: OutboxCommitNotifier,
    ) => {
      if (options.relay?.enabled === false) return null;
      // The relay's parts, each replaceable: a pool of its own on the app's database, the
      // claimer and finalizer on it (t_outbox on the DataSource's engine), the publisher.
      const instanceId = resolved.instanceId ?? defaultInstanceId();
      const pool = relayPool(dataSource, resolved.ownConnections);
      return new OutboxRelay({
        options: resolved,
        instanceId,
        connections: pool.connections,
        claims: new OutboxClaimer(pool.dataSource, resolved, instanceId),
        outcomes: new OutboxFinalizer(pool.dataSource, resolved),
        // options.kafka is checked: the relay runs here.
        publisher: (options.createPublisher ?? kafkajsPublisher)(options.kafka!, resolved),
        topicFor: options.topicFor,
        notifier: commitWakeUp(
          dataSource,
          options.listenNotify,
          notifier,
          new Logger(OutboxRelay.name),
        ),
        tracing: options.tracing,
      });
    },
  },
  {
    provide: OutboxOperations,
    inject: [RELAY_OPTIONS, OUTBOX_DATA_SOURCE, OutboxRelay],
    useFactory: (
      resolved: ReturnType<typeof resolveRelayOptions>,
      dataSource: DataSource,
      relay: OutboxRelay | null,
    ) =>
      new OutboxOperations(
        dataSource,
        resolved.deadPolicy,
        relay ? () => relay.counts() : undefined,
      ),
  },
  {
    provide: OutboxRetention,
    inject: [OUTBOX_MODULE_OPTIONS, OutboxOperations],
    useFactory: (options: OutboxModuleOptions, operations: OutboxOperations) => {
      const { enabled = true, ...retention } = options.retention ?? {};
      return enabled
        ? new OutboxRetention(operations, { ...DEFAULT_RETENTION, ...retention })
        : null;
    },
  },
];
