import { kafkaClientSecurity } from '@app/config';
import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { topicForAggregate } from '@app/trading-events';
import { databaseConfigFromEnv } from '@outbox-inbox/database';
import { mysqlDataSourceOptions } from '@outbox-inbox/database/mysql';
import { OutboxModule, relayOptionsFromEnv } from '@outbox-inbox/outbox';
import { OutboxHttpModule } from '@outbox-inbox/outbox/http';
import { kafkajsLogCreator, ObservabilityModule } from '@app/observability';
import { OperatorAuthModule, outboxPublisherFromEnv } from '@app/service-bootstrap';
import { OrderServiceConfig } from './order-service.config';
import { OrderMigrations } from './migrations';
import { OrderEventsOutbox } from './orders/order-events.outbox';
import { OrderHistoryReader } from './orders/order-history';
import { OrderIdempotencyRepository } from './orders/order-idempotency.repository';
import { OrdersHttpController } from './orders/orders.http.controller';
import { OrdersOperatorHttpController } from './orders/orders-operator.http.controller';
import { OrdersRepository } from './orders/orders.repository';
import { OrderTransitionsRepository } from './orders/order-transitions.repository';
import { RecentOrdersReader } from './orders/recent-orders';
import { OrdersService } from './orders/orders.service';
import { PayCallbackMetrics } from './payments/pay-callback.metrics';
import { PayCallbackService } from './payments/pay-callback.service';
import { PayCallbacksRepository } from './payments/pay-callbacks.repository';
import { PayNotificationsRepository } from './payments/pay-notifications.repository';
import { PAY_CALLBACK_SECRETS, PaymentsHttpController } from './payments/payments.http.controller';

/** Wiring choices that are not environment variables. */
export interface OrderServiceModuleOptions {
  /** Run the outbox relay in this process. Default true; tests of the HTTP side turn it off. */
  outboxRelay?: boolean;
}

/**
 * The order-service. Its settings come from OrderServiceConfig (provided by `serviceConfig`)
 * at DI time; `options` are the wiring choices that are not environment variables.
 */
@Module({})
export class OrderServiceModule {
  static forRoot(options: OrderServiceModuleOptions = {}): DynamicModule {
    return {
      module: OrderServiceModule,
      imports: [
        ObservabilityModule.forService('order-service', OrderServiceConfig),
        OperatorAuthModule.forService(OrderServiceConfig),
        TypeOrmModule.forRootAsync({
          inject: [OrderServiceConfig],
          useFactory: (config: OrderServiceConfig) =>
            mysqlDataSourceOptions({
              ...databaseConfigFromEnv(config),
              migrations: OrderMigrations,
            }),
        }),
        OutboxModule.forRootAsync({
          inject: [OrderServiceConfig],
          useFactory: (config: OrderServiceConfig) => ({
            // A writer-only instance (relay off) may run without any Kafka settings.
            kafka: config.KAFKA_BROKERS && {
              brokers: config.KAFKA_BROKERS,
              clientId: config.KAFKA_CLIENT_ID ?? 'order-service',
              ...kafkaClientSecurity(config),
              logCreator: kafkajsLogCreator(),
            },
            createPublisher: outboxPublisherFromEnv(config),
            topicFor: (aggregateType: string) =>
              topicForAggregate(aggregateType, config.TOPIC_PREFIX),
            relay: {
              ...relayOptionsFromEnv(config),
              enabled: (options.outboxRelay ?? true) && config.OUTBOX_RELAY_ENABLED,
            },
          }),
        }),
        OutboxHttpModule.register(),
      ],
      controllers: [OrdersHttpController, OrdersOperatorHttpController, PaymentsHttpController],
      providers: [
        {
          provide: PAY_CALLBACK_SECRETS,
          inject: [OrderServiceConfig],
          useFactory: (config: OrderServiceConfig) =>
            config.PAY_CALLBACK_SECRET_PREVIOUS === undefined
              ? [config.PAY_CALLBACK_SECRET]
              : [config.PAY_CALLBACK_SECRET, config.PAY_CALLBACK_SECRET_PREVIOUS],
        },
        OrdersRepository,
        OrderTransitionsRepository,
        OrderIdempotencyRepository,
        PayNotificationsRepository,
        PayCallbacksRepository,
        PayCallbackMetrics,
        OrderEventsOutbox,
        OrdersService,
        PayCallbackService,
        RecentOrdersReader,
        OrderHistoryReader,
      ],
    };
  }
}
