/** Registers the outbox's Prometheus metrics (prom-client) on a registry; read when scraped. */
export { registerOutboxMetrics } from './register-outbox-metrics';
export type { OutboxMetricsOptions, OutboxMetricsSources } from './register-outbox-metrics';
/** The same as a Nest module, beside OutboxModule: registered at start, removed at close. */
export { OutboxMetricsModule } from './outbox-metrics.module';
