/** Nest module: metrics, health, JSON logs and trace propagation for one service. */
export { ObservabilityModule } from './observability.module';
export type { ObservabilityAsyncOptions, ObservabilityOptions } from './observability.options';
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
/** A kafkajs logCreator writing kafkajs's lines through the service's pino logger. */
export { kafkajsLogCreator } from './logging/kafkajs-log-creator';
/** Registers the OpenTelemetry SDK (OTLP export when configured); flushes it at shutdown. */
export { flushTracing, startTracing } from './tracing/start-tracing';
/**
 * Marks a route as open without the operator token (health, customer API, signed callbacks),
 * and the metadata key that OperatorAuthModule's guard (@app/service-bootstrap) reads.
 */
export { PUBLIC_ROUTE, PublicRoute } from './auth/public-route.decorator';
/** What is secret in a log line (headers, query parameters, credentials in text), defined once. */
export { isSecretName, redactText, SECRET_HEADERS } from './logging/secrets';
