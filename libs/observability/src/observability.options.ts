import type { FactoryProvider, ModuleMetadata } from '@nestjs/common';
import { BrokerProbeOptions } from './health/broker-probe';
import { ReadinessThresholds } from './health/readiness-thresholds';

/** How a service wires metrics, health, logs and trace propagation. */
export interface ObservabilityOptions {
  /** Service name: the `service` label of every metric and field of every log line. */
  service: string;
  /** Nest log level (LOG_LEVEL): fatal, error, warn, log, debug or verbose. */
  logLevel: string;
  /** The Kafka cluster readiness probes; omit for a service without Kafka. */
  kafka?: BrokerProbeOptions;
  /** Readiness thresholds; defaults in DEFAULT_READINESS. */
  readiness?: Partial<ReadinessThresholds>;
}

/** `ObservabilityModule.forRootAsync`: the options from a factory run at DI time. */
export interface ObservabilityAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  /** Service name, needed when the module is built (the metrics registry's label). */
  service: string;
  inject?: FactoryProvider['inject'];
  useFactory: (...args: any[]) => ObservabilityOptions | Promise<ObservabilityOptions>; // eslint-disable-line @typescript-eslint/no-explicit-any
}
