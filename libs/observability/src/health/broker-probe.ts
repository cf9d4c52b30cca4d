import { Admin, Kafka, KafkaConfig, logLevel } from 'kafkajs';

/** How the readiness check reaches the Kafka cluster, secured as the service's other clients. */
export interface BrokerProbeOptions {
  brokers: string[];
  clientId: string;
  ssl?: KafkaConfig['ssl'];
  sasl?: KafkaConfig['sasl'];
}

/**
 * Asks the cluster for its brokers with a kafkajs admin client of its own (no retries, short
 * timeouts), so readiness reflects whether this process can reach Kafka now. A failed probe
 * drops the connection; the next one connects again.
 */
export class BrokerProbe {
  private readonly admin: Admin;
  private connected?: Promise<void>;

  constructor(options: BrokerProbeOptions, timeoutMs: number) {
    this.admin = new Kafka({
      clientId: `${options.clientId}-health`,
      brokers: options.brokers,
      ...(options.ssl !== undefined && { ssl: options.ssl }),
      ...(options.sasl !== undefined && { sasl: options.sasl }),
      logLevel: logLevel.NOTHING,
      connectionTimeout: timeoutMs,
      requestTimeout: timeoutMs,
      retry: { retries: 0 },
    }).admin();
  }

  /** Resolves with the number of brokers the cluster reports; rejects when it cannot tell. */
  async brokers(): Promise<number> {
    try {
      this.connected ??= this.admin.connect();
      await this.connected;
      const cluster = await this.admin.describeCluster();
      if (cluster.brokers.length === 0) throw new Error('the cluster reports no brokers');
      return cluster.brokers.length;
    } catch (error) {
      this.connected = undefined;
      await this.admin.disconnect().catch(() => undefined);
      throw error;
    }
  }

  async close(): Promise<void> {
    this.connected = undefined;
    await this.admin.disconnect();
  }
}
