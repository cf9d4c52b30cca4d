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
import { OutboxModule, OutboxModuleOptions, relayOptionsFromEnv } from '@outbox-inbox/outbox';
import { OutboxHttpModule } from '@outbox-inbox/outbox/http';
import { kafkajsLogCreator, ObservabilityModule } from '@app/observability';
import { OperatorAuthModule, outboxPublisherFromEnv } from '@app/service-bootstrap';
import { FulfillmentServiceConfig } from './fulfillment-service.config';
import { FulfillmentModule } from './fulfillment/fulfillment.module';
import { FulfillmentMigrations } from './migrations';

/** Settings a deployment or a test may change; the rest follow from the config. */
export interface FulfillmentServiceOverrides {
  inbox?: Partial<Pick<InboxModuleOptions, 'consumer' | 'deadLetterTopic' | 'retry'>>;
  relay?: OutboxModuleOptions['relay'];
}

/**
 * The fulfillment-service. Its settings come from FulfillmentServiceConfig (provided by
 * `serviceConfig`) at DI time; `overrides` change what a deployment or a test may change.
 */
@Module({})
export class FulfillmentServiceModule {
  static forRoot(overrides: FulfillmentServiceOverrides = {}): DynamicModule {
    return {
      module: FulfillmentServiceModule,
      imports: [
        ObservabilityModule.forService('fulfillment-service', FulfillmentServiceConfig),
        OperatorAuthModule.forService(FulfillmentServiceConfig),
        TypeOrmModule.forRootAsync({
          inject: [FulfillmentServiceConfig],
          useFactory: (config: FulfillmentServiceConfig) =>
            mysqlDataSourceOptions({
              ...databaseConfigFromEnv(config),
              migrations: FulfillmentMigrations,
            }),
        }),
        OutboxModule.forRootAsync({
          inject: [FulfillmentServiceConfig],
          useFactory: (config: FulfillmentServiceConfig) => ({
            kafka: {
              brokers: config.KAFKA_BROKERS,
              clientId: clientIdOf(config),
              ...kafkaClientSecurity(config),
              logCreator: kafkajsLogCreator(),
            },
            createPublisher: outboxPublisherFromEnv(config),
            topicFor: (aggregateType: string) =>
              topicForAggregate(aggregateType, config.TOPIC_PREFIX),
            relay: { ...relayOptionsFromEnv(config), ...overrides.relay },
          }),
        }),
        InboxModule.forRootAsync({
          inject: [FulfillmentServiceConfig],
          useFactory: (config: FulfillmentServiceConfig) => {
            const consumer = overrides.inbox?.consumer ?? 'fulfillment-service';
            return {
              consumer,
              ...consumerChannels(consumer, config.TOPIC_PREFIX),
              kafka: {
                brokers: config.KAFKA_BROKERS,
                clientId: clientIdOf(config),
                ...kafkaClientSecurity(config),
                logCreator: kafkajsLogCreator(),
                ...groupTimingFromEnv(config),
              },
              registry: tradingEventRegistry(),
              // The whole Order topic: the version gate sees every event of an order, handled or not.
              topics: [topicForAggregate('Order', config.TOPIC_PREFIX)],
              ...inboxOptionsFromEnv(config),
              ...overrides.inbox,
            };
          },
        }),
        OutboxHttpModule.register(),
        InboxHttpModule.register(),
        FulfillmentModule,
      ],
    };
  }
}

function clientIdOf(config: FulfillmentServiceConfig): string {
  return config.KAFKA_CLIENT_ID ?? 'fulfillment-service';
}
