import { DynamicModule, Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OutboxCommitNotifier } from './outbox-commit-notifier';
import { OutboxHttpController } from './outbox.http.controller';
import { OutboxOperations } from './outbox-operations';
import { OutboxRelay } from './outbox-relay';
import { OutboxRelayOptions, resolveRelayOptions } from './outbox-relay.options';
import { OutboxWriter } from './outbox-writer';
import { OutboxKafkaOptions } from './kafka-outbox-publisher';
import { DEFAULT_RETENTION, OutboxRetention, OutboxRetentionOptions } from './outbox-retention';

/** How a service wires the outbox. */
export interface OutboxModuleOptions {
  kafka: OutboxKafkaOptions;
  /** The topic an aggregate type's events go to (required: the outbox knows no topic names). */
  topicFor: (aggregateType: string) => string;
  /** Relay tuning; `enabled: false` runs no relay in this process (writer and API only). */
  relay?: Partial<OutboxRelayOptions> & { enabled?: boolean };
  /** Deleting old SENT rows; on by default (7 days), `enabled: false` turns it off. */
  retention?: Partial<OutboxRetentionOptions> & { enabled?: boolean };
}

/**
 * The outbox for one service: OutboxWriter, OutboxRelay (started on bootstrap, stopped
 * gracefully on shutdown), OutboxOperations and the /outbox HTTP endpoints. Global; needs the
 * app's TypeORM DataSource (TypeOrmModule.forRoot) and its migrations to include
 * OutboxMigrations.
 */
@Global()
@Module({})
export class OutboxModule {
  static forRoot(options: OutboxModuleOptions): DynamicModule {
    const { enabled = true, ...relayOptions } = options.relay ?? {};
    const resolved = resolveRelayOptions(relayOptions); // fail at wiring time, not at bootstrap
    const { enabled: retain = true, ...retentionOptions } = options.retention ?? {};
    return {
      module: OutboxModule,
      controllers: [OutboxHttpController],
      providers: [
        {
          provide: OutboxCommitNotifier,
          inject: [DataSource],
          useFactory: (dataSource: DataSource) => {
            const notifier = new OutboxCommitNotifier();
            dataSource.subscribers.push(notifier);
            return notifier;
          },
        },
        {
          provide: OutboxWriter,
          inject: [OutboxCommitNotifier],
          useFactory: (notifier: OutboxCommitNotifier) => new OutboxWriter(notifier),
        },
        {
          provide: OutboxRelay,
          inject: [DataSource, OutboxCommitNotifier],
          useFactory: (dataSource: DataSource, notifier: OutboxCommitNotifier) =>
            enabled
              ? new OutboxRelay({
                  ...resolved,
                  dataSource,
                  notifier,
                  kafka: options.kafka,
                  topicFor: options.topicFor,
                })
              : null,
        },
        {
          provide: OutboxOperations,
          inject: [DataSource, OutboxRelay],
          useFactory: (dataSource: DataSource, relay: OutboxRelay | null) =>
            new OutboxOperations(
              dataSource,
              resolved.deadPolicy,
              relay ? () => relay.counts() : undefined,
            ),
        },
        {
          provide: OutboxRetention,
          inject: [OutboxOperations],
          useFactory: (operations: OutboxOperations) =>
            retain
              ? new OutboxRetention(operations, { ...DEFAULT_RETENTION, ...retentionOptions })
              : null,
        },
      ],
      exports: [OutboxWriter, OutboxRelay, OutboxOperations],
    };
  }
}
