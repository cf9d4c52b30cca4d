import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { consumerChannels, topicForAggregate, tradingEventRegistry } from '@app/trading-events';
import { databaseConfigFromEnv, mysqlDataSourceOptions } from '@outbox-inbox/database';
import {
  groupTimingFromEnv,
  inboxOptionsFromEnv,
  InboxModule,
  InboxModuleOptions,
} from '@outbox-inbox/inbox';
import { OutboxModule, OutboxModuleOptions, relayOptionsFromEnv } from '@outbox-inbox/outbox';
import { kafkajsLogCreator, ObservabilityModule } from '@app/observability';
import { FulfillmentServiceConfig } from './fulfillment-service.config';
import { CouponSource, FulfillmentModule } from './fulfillment/fulfillment.module';
import { FulfillmentMigrations } from './migrations';

/** Settings a deployment or a test may change; the rest follow from the config. */
export interface FulfillmentServiceOverrides {
  inbox?: Partial<Pick<InboxModuleOptions, 'consumer' | 'deadLetterTopic' | 'retry' | 'hooks'>>;
  relay?: OutboxModuleOptions['relay'];
  coupons?: CouponSource;
}

@Module({})
export class FulfillmentServiceModule {
  static forRoot(
    config: FulfillmentServiceConfig,
    overrides: FulfillmentServiceOverrides = {},
  ): DynamicModule {
    const clientId = config.KAFKA_CLIENT_ID ?? 'fulfillment-service';
    const consumer = overrides.inbox?.consumer ?? 'fulfillment-service';
    return {
      module: FulfillmentServiceModule,
      imports: [
        ObservabilityModule.forService('fulfillment-service', config),
        TypeOrmModule.forRoot(
          mysqlDataSourceOptions({
            ...databaseConfigFromEnv(config),
            migrations: FulfillmentMigrations,
          }),
        ),
        OutboxModule.forRoot({
          kafka: { brokers: config.KAFKA_BROKERS, clientId, logCreator: kafkajsLogCreator() },
          topicFor: (aggregateType) => topicForAggregate(aggregateType, config.TOPIC_PREFIX),
          relay: { ...relayOptionsFromEnv(config), ...overrides.relay },
        }),
        InboxModule.forRoot({
          consumer,
          ...consumerChannels(consumer, config.TOPIC_PREFIX),
          kafka: {
            brokers: config.KAFKA_BROKERS,
            clientId,
            logCreator: kafkajsLogCreator(),
            ...groupTimingFromEnv(config),
          },
          registry: tradingEventRegistry(),
          // The whole Order topic: the version gate sees every event of an order, handled or not.
          topics: [topicForAggregate('Order', config.TOPIC_PREFIX)],
          ...inboxOptionsFromEnv(config),
          ...overrides.inbox,
        }),
        FulfillmentModule.forRoot(
          {
            couponRateBps: config.COUPON_RATE_BPS,
            maxAttempts: config.FULFILLMENT_MAX_ATTEMPTS,
            retryBaseDelayMs: config.FULFILLMENT_RETRY_BASE_MS,
            retryMaxDelayMs: config.FULFILLMENT_RETRY_MAX_MS,
            retryPollMs: config.FULFILLMENT_RETRY_POLL_MS,
          },
          overrides.coupons ?? {
            baseUrl: config.COUPON_PROVIDER_URL,
            timeoutMs: config.COUPON_PROVIDER_TIMEOUT_MS,
          },
        ),
      ],
    };
  }
}
