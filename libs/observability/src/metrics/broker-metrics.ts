import { Gauge } from 'prom-client';
import { BrokerProbe } from '../health/broker-probe';
import { MetricsRegistry } from './metrics-registry';

/**
 * `kafka_broker_up`: 1 when this process reached the Kafka cluster at scrape time, else 0.
 * Asked through the readiness probe's admin client (no retries, short timeouts), so a scrape
 * during an outage costs at most one probe timeout.
 */
export class BrokerMetrics {
  constructor(registry: MetricsRegistry, probe: BrokerProbe) {
    new Gauge({
      name: 'kafka_broker_up',
      help: '1 when this process could reach the Kafka cluster at this scrape, else 0',
      registers: [registry],
      async collect() {
        this.set(
          await probe.brokers().then(
            () => 1,
            () => 0,
          ),
        );
      },
    });
  }
}
