/** Nest module: metrics, health, JSON logs and trace propagation for one service. */
export { ObservabilityModule } from './observability.module';
export type { ObservabilityOptions } from './observability.options';
/** Readiness thresholds and their defaults. */
export { DEFAULT_READINESS } from './health/readiness-thresholds';
export type { ReadinessThresholds } from './health/readiness-thresholds';
/** The prom-client registry of an app (inject it to add metrics). */
export { MetricsRegistry } from './metrics/metrics-registry';
/** The correlation id of the request or message being handled, and how to set one. */
export {
  acceptCorrelationId,
  CORRELATION_HEADER,
  currentCorrelationId,
  runWithCorrelation,
} from './correlation/correlation-context';
/** Registers the OpenTelemetry SDK (OTLP export when configured); flushes it at shutdown. */
export { flushTracing, startTracing } from './tracing/start-tracing';
