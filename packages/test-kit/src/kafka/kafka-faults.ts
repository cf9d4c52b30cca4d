import { KafkaMock } from '../kafka-mock';
import { TcpProxy } from '../tcp-proxy';

/**
 * Faults on every client's path to the brokers, the same on the mock and on Apache Kafka, so
 * that one test proves its point on both.
 */
export interface KafkaFaults {
  /** Every broker unreachable: open connections drop, new ones are refused. */
  allDown(): Promise<void>;
  /** Every broker reachable again. */
  allUp(): Promise<void>;
  /** Every broker's replies arrive `ms` late (0: on time again). */
  setLatency(ms: number): Promise<void>;
}

/** The mock's own controls: its brokers go down, its replies wait. */
export function mockFaults(mock: KafkaMock): KafkaFaults {
  return {
    allDown: async () => void (await mock.brokerDown('all')),
    allUp: async () => void (await mock.brokerUp('all')),
    setLatency: async (ms) => void (await mock.setRtt('all', ms)),
  };
}

/**
 * The TCP proxies in front of an Apache Kafka cluster's client listeners, which the brokers
 * advertise: every client's path, the services' included, runs through them, while
 * replication and the controllers' quorum do not.
 */
export function proxyFaults(proxies: TcpProxy[]): KafkaFaults {
  return {
    allDown: async () => void (await Promise.all(proxies.map((p) => p.cut()))),
    allUp: async () => void (await Promise.all(proxies.map((p) => p.heal()))),
    setLatency: async (ms) => proxies.forEach((p) => p.setLatency(ms)),
  };
}
