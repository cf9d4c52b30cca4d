import type { KafkaConfig } from 'kafkajs';
import { consumerChannels, topicForAggregate } from '@app/trading-events';

/** The kafkajs `ssl` and `sasl` of the checker's client (kafkaSecurityFromEnv of @app/config). */
export type KafkaSecurity = Pick<KafkaConfig, 'ssl' | 'sasl'>;

/** One idempotent consumer the checker holds to account. */
export interface ConsumerTarget {
  /** The inbox consumer name (t_inbox.consumer). */
  name: string;
  /** Its Kafka consumer group id. */
  groupId: string;
  /** Its database (holding t_inbox, t_inbox_version, t_inbox_parked). */
  database: string;
  topics: string[];
  deadLetterTopic: string;
  /** Its retry topic (replays of its dead letters, read by its group alone), if it has one. */
  retryTopic?: string;
}

/** Where a deployment of the trading chain keeps its state. */
export interface InvariantTargets {
  /** MySQL server URL without a database, e.g. mysql://root@127.0.0.1:3306. */
  mysqlUrl: string;
  databases: { order: string; fulfillment: string; accounting: string; couponProvider: string };
  kafkaBrokers: string[];
  /** SASL and TLS of the checker's Kafka client; none when unset. */
  kafkaSecurity?: KafkaSecurity;
  topics: { order: string; fulfillment: string };
  consumers: ConsumerTarget[];
}

/** The few settings that tell one deployment from another (as scripts/stack and compose use them). */
export interface DeploymentSettings {
  mysqlUrl: string;
  kafkaBrokers: string[];
  /** SASL and TLS of the checker's Kafka client; none when unset. */
  kafkaSecurity?: KafkaSecurity;
  /** Prefix of the four database names (tests give each stack its own). Default ''. */
  databasePrefix?: string;
  /** Prefix of the event topics. Default 'trading.'. */
  topicPrefix?: string;
}

/** The targets of a trading-chain deployment: its four databases, two topics and two consumers. */
export function invariantTargets(settings: DeploymentSettings): InvariantTargets {
  const db = settings.databasePrefix ?? '';
  const topics = {
    order: topicForAggregate('Order', settings.topicPrefix),
    fulfillment: topicForAggregate('Fulfillment', settings.topicPrefix),
  };
  const databases = {
    order: `${db}order_service`,
    fulfillment: `${db}fulfillment_service`,
    accounting: `${db}accounting_service`,
    couponProvider: `${db}coupon_provider`,
  };
  return {
    mysqlUrl: settings.mysqlUrl.replace(/\/+$/, ''),
    databases,
    kafkaBrokers: settings.kafkaBrokers,
    ...(settings.kafkaSecurity && { kafkaSecurity: settings.kafkaSecurity }),
    topics,
    consumers: [
      {
        name: 'fulfillment-service',
        database: databases.fulfillment,
        topics: [topics.order],
        ...consumerChannels('fulfillment-service', settings.topicPrefix),
      },
      {
        name: 'accounting-service',
        database: databases.accounting,
        topics: [topics.order, topics.fulfillment],
        ...consumerChannels('accounting-service', settings.topicPrefix),
      },
    ],
  };
}
