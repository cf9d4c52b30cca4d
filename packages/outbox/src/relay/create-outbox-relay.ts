import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { LoggerService } from '@nestjs/common';
import type { MessageTracing } from '@outbox-inbox/messaging';
import { DataSource } from 'typeorm';
import { kafkajsPublisher, OutboxKafkaOptions } from '../publisher/kafka-outbox-publisher';
import type { OutboxPublisherFactory } from '../publisher/outbox-publisher-factory';
import { OutboxClaimer } from './outbox-claimer';
import { OutboxCommitNotifier } from '../writer/outbox-commit-notifier';
import { commitWakeUp, ListenNotifySetting } from './listen-notify-wake-up';
import { OutboxFinalizer } from './outbox-finalizer';
import { OutboxPublisher } from '../publisher/outbox-publisher';
import { OutboxRelay } from './outbox-relay';
import { OutboxRelayOptions, resolveRelayOptions } from './outbox-relay.options';
import { relayPool } from './relay-connections';

/** A standalone relay's settings; `dataSource`, `topicFor` and `kafka` (or `publisher`) are required. */
export interface OutboxRelayConfig extends Partial<OutboxRelayOptions> {
  dataSource: DataSource;
  kafka?: OutboxKafkaOptions;
  /** Replaces the Kafka publisher (tests, benchmarks). */
  publisher?: OutboxPublisher;
  /** Builds the publisher from `kafka`: KafkaOutboxPublisher (kafkajs) by default, or confluentOutboxPublisher. */
  createPublisher?: OutboxPublisherFactory;
  /** The topic an aggregate type's events go to, e.g. `(type) => \`shop.${type.toLowerCase()}.events\``. */
  topicFor: (aggregateType: string) => string;
  /** Wakes the relay when a transaction that wrote outbox rows commits in this process. */
  notifier?: OutboxCommitNotifier;
  /**
   * PostgreSQL only, off by default: also wake it when one commits in another process, through
   * LISTEN/NOTIFY (the writers' OutboxCommitNotifier needs the same `notifyChannel`). See
   * ListenNotifyWakeUp for what it costs.
   */
  listenNotify?: ListenNotifySetting;
  logger?: LoggerService;
  /** The PRODUCER span of each message sent. Default: openTelemetryTracing. */
  tracing?: MessageTracing;
}

/**
 * A relay on MySQL/MariaDB or PostgreSQL and Kafka, wired as OutboxModule wires it: the
 * options resolved and validated, its own pool on `dataSource`'s database (`ownConnections`),
 * the claimer and finalizer on that pool, the publisher (kafkajs unless `createPublisher` says
 * otherwise, or `publisher`).
 */
export function createOutboxRelay(config: OutboxRelayConfig): OutboxRelay {
  const {
    dataSource,
    kafka,
    publisher,
    createPublisher = kafkajsPublisher,
    topicFor,
    notifier,
    listenNotify,
    logger,
    tracing,
    ...partial
  } = config;
  if (typeof topicFor !== 'function') {
    throw new Error('OutboxRelay needs `topicFor`: the topic of each aggregate type');
  }
  if (!publisher && !kafka) {
    throw new Error('OutboxRelay needs `kafka` (brokers, clientId) or a `publisher`');
  }
  const options = resolveRelayOptions(partial);
  const instanceId = options.instanceId ?? defaultInstanceId();
  const pool = relayPool(dataSource, options.ownConnections);
  return new OutboxRelay({
    options,
    instanceId,
    connections: pool.connections,
    claims: new OutboxClaimer(pool.dataSource, options, instanceId),
    outcomes: new OutboxFinalizer(pool.dataSource, options),
    publisher: publisher ?? createPublisher(kafka!, options),
    topicFor,
    notifier: commitWakeUp(dataSource, listenNotify, notifier, logger),
    logger,
    tracing,
  });
}

/** Host, process and a random part: unique per process, readable in t_outbox.lease_owner. */
export function defaultInstanceId(): string {
  return `${hostname().slice(0, 40)}-${process.pid}-${randomBytes(4).toString('hex')}`;
}
