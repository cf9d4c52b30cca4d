import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { DataSourceRef } from '@outbox-inbox/database';
import type { MessageTracing } from '@outbox-inbox/messaging';
import { OutboxKafkaOptions } from './publisher/kafka-outbox-publisher';
import type { OutboxPublisherFactory } from './publisher/outbox-publisher-factory';
import type { ListenNotifySetting } from './relay/listen-notify-wake-up';
import { OutboxRelayOptions } from './relay/outbox-relay.options';
import { OutboxRetentionOptions } from './housekeeping/outbox-retention';
import { OUTBOX_MODULE_OPTIONS } from './outbox.tokens';

/** What the opt-in start-up check covers besides t_outbox. */
export interface OutboxCheckOnStart {
  /** Aggregate types this process writes: the topic `topicFor` gives each must exist (needs `kafka`). */
  aggregateTypes?: string[];
}

/** How a service wires the outbox (`forRoot`, or returned by `forRootAsync`'s factory). */
export interface OutboxModuleOptions {
  /**
   * Kafka client settings (brokers, clientId, ssl, sasl), or `{ client }`: a kafkajs instance.
   * Required when the relay runs here; a writer-only process (`relay.enabled: false`) needs none.
   */
  kafka?: OutboxKafkaOptions;
  /**
   * Builds the relay's publisher from `kafka`. Default: KafkaOutboxPublisher (kafkajs);
   * confluentOutboxPublisher from `@outbox-inbox/outbox/confluent` publishes with librdkafka.
   */
  createPublisher?: OutboxPublisherFactory;
  /** The topic an aggregate type's events go to (required: the outbox knows no topic names). */
  topicFor: (aggregateType: string) => string;
  /** Relay tuning; `enabled: false` runs no relay in this process (writer and API only). */
  relay?: Partial<OutboxRelayOptions> & { enabled?: boolean };
  /** Deleting old SENT rows; on by default (7 days), `enabled: false` turns it off. */
  retention?: Partial<OutboxRetentionOptions> & { enabled?: boolean };
  /**
   * How each event's trace travels: captured by the writer, a PRODUCER span per message sent.
   * Default: openTelemetryTracing (@outbox-inbox/messaging).
   */
  tracing?: MessageTracing;
  /**
   * PostgreSQL only, off by default: wake relays in every process on commit, through
   * LISTEN/NOTIFY on `channel` (default `outbox_committed`), not only the relay of the
   * writing process. Each writing transaction sends one NOTIFY, which serializes those commits
   * on PostgreSQL's notification queue; the relay keeps one session of its own listening,
   * which a transaction-mode pooler (PgBouncer) breaks. See ListenNotifyWakeUp.
   */
  listenNotify?: ListenNotifySetting;
  /**
   * Off by default. `true`: the start fails (OUTBOX_START_CHECK_FAILED) unless t_outbox answers
   * a query; `{ aggregateTypes }`: also unless the topic of each exists (needs `kafka`).
   */
  checkOnStart?: boolean | OutboxCheckOnStart;
}

/**
 * What the module is built with, beside the options: known when the module is declared (also
 * with `forRootAsync`), because they decide its providers.
 */
export interface OutboxModuleExtras {
  /** The DataSource holding t_outbox: instance, TypeORM name or token. Default: the default one. */
  dataSource?: DataSourceRef;
}

export const {
  ConfigurableModuleClass: OutboxConfigurableModule,
  OPTIONS_TYPE: OUTBOX_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: OUTBOX_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<OutboxModuleOptions>({
  moduleName: 'Outbox',
  optionsInjectionToken: OUTBOX_MODULE_OPTIONS,
})
  .setClassMethodName('forRoot')
  .setExtras<OutboxModuleExtras>({}, (definition) => definition)
  .build();

export { OUTBOX_DATA_SOURCE, OUTBOX_MODULE_OPTIONS } from './outbox.tokens';
