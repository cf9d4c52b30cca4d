import { kafkaClientSecurity } from '@app/config';
import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { consumerChannels, topicForAggregate, tradingEventRegistry } from '@app/trading-events';
import { databaseConfigFromEnv } from '@outbox-inbox/database';
import { mysqlDataSourceOptions } from '@outbox-inbox/database/mysql';
import {
  groupTimingFromEnv,
  InboxModule,
  InboxModuleOptions,
  inboxOptionsFromEnv,
} from '@outbox-inbox/inbox';
import { InboxHttpModule } from '@outbox-inbox/inbox/http';
import { kafkajsLogCreator, ObservabilityModule } from '@app/observability';
import { OperatorAuthModule } from '@app/service-bootstrap';
import { AccountingServiceConfig } from './accounting-service.config';
import { LedgerModule } from './ledger/ledger.module';
import { AccountingMigrations } from './migrations';

/** Inbox settings a test (or an embedding) may change; the rest follow from the config. */
export interface AccountingInboxOverrides extends Partial<
  Pick<InboxModuleOptions, 'consumer' | 'deadLetterTopic' | 'retry'>
> {
  /** Consumer-group timing; shorter in tests so a restarted consumer rejoins quickly. */
  groupTiming?: Pick<
    InboxModuleOptions['kafka'],
    'sessionTimeoutMs' | 'heartbeatIntervalMs' | 'rebalanceTimeoutMs'
  >;
}

/**
 * The accounting-service. Its settings come from AccountingServiceConfig (provided by
 * `serviceConfig`) at DI time; `overrides` change what a test (or an embedding) may change.
 */
@Module({})
export class AccountingServiceModule {
  static forRoot(overrides: AccountingInboxOverrides = {}): DynamicModule {
    const { groupTiming, ...inbox } = overrides;
    const consumer = inbox.consumer ?? 'accounting-service';
    return {
      module: AccountingServiceModule,
      imports: [
        ObservabilityModule.forService('accounting-service', AccountingServiceConfig),
        OperatorAuthModule.forService(AccountingServiceConfig),
        TypeOrmModule.forRootAsync({
          inject: [AccountingServiceConfig],
          useFactory: (config: AccountingServiceConfig) =>
            mysqlDataSourceOptions({
              ...databaseConfigFromEnv(config),
              migrations: AccountingMigrations,
            }),
        }),
        InboxModule.forRootAsync({
          inject: [AccountingServiceConfig],
          useFactory: (config: AccountingServiceConfig) => ({
            consumer,
            ...consumerChannels(consumer, config.TOPIC_PREFIX),
            kafka: {
              brokers: config.KAFKA_BROKERS,
              clientId: config.KAFKA_CLIENT_ID ?? 'accounting-service',
              ...kafkaClientSecurity(config),
              logCreator: kafkajsLogCreator(),
              ...groupTimingFromEnv(config),
              ...groupTiming,
            },
            registry: tradingEventRegistry(),
            topics: [
              topicForAggregate('Order', config.TOPIC_PREFIX),
              topicForAggregate('Fulfillment', config.TOPIC_PREFIX),
            ],
            // One event per transaction: each booking then locks its accounts in code order, which
            // a batch of several events (each with its own accounts) would no longer do.
            batchSize: 1,
            ...inboxOptionsFromEnv(config),
            ...inbox,
          }),
        }),
        InboxHttpModule.register(),
        LedgerModule,
      ],
    };
  }
}
