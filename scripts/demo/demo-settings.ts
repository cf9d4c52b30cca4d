import type { KafkaSecurity } from '@app/trading-checker';

/** Where the demo finds the running chain, and how it may reach it. */
export interface DemoSettings {
  urls: {
    order: string;
    fulfillment: string;
    accounting: string;
    coupon: string;
    /** The ops console: the demo reads each order's timeline from it. */
    opsConsole: string;
  };
  payCallbackSecret: string;
  /** MySQL/MariaDB server URL without a database, for the invariant checker. */
  mysqlUrl: string;
  kafkaBrokers: string[];
  /**
   * SASL and TLS of the demo's checker (kafkaSecurityFromEnv, or the operators' principal on
   * the secured cluster the demo started its stack on); none when unset.
   */
  kafkaSecurity?: KafkaSecurity;
  /**
   * SASL and TLS of the client that writes copies of events back, as Kafka redelivers after a
   * crash: no service principal may write another's topic, so on the secured cluster of this
   * machine the cluster's admin stands in for Kafka. Default: `kafkaSecurity`.
   */
  redeliverySecurity?: KafkaSecurity;
  /** Prefix of the four databases and of the topics, consumer groups and dead-letter topics. */
  databasePrefix: string;
  topicPrefix: string;
  /** Bearer token of the operator routes, when the services require one. */
  opsToken?: string;
}

/** Headers of a call to an operator route. */
export function opsHeaders(settings: Pick<DemoSettings, 'opsToken'>): Record<string, string> {
  return settings.opsToken ? { authorization: `Bearer ${settings.opsToken}` } : {};
}

/** The user id of a demo run's orders: the run is found again by this prefix. */
export function demoUserPrefix(runId: string): string {
  return `demo-${runId}-`;
}

/** A new run id: short, sortable by time, safe in database and topic names. */
export function newRunId(now = Date.now()): string {
  return `r${now.toString(36)}${Math.floor(Math.random() * 36 ** 2)
    .toString(36)
    .padStart(2, '0')}`;
}
