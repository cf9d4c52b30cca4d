/** Registers the inbox's Prometheus metrics (prom-client) on a registry; read when scraped. */
export { registerInboxMetrics } from './register-inbox-metrics';
export type { InboxMetricsOptions, InboxMetricsSources } from './register-inbox-metrics';
/** The same as a Nest module, beside InboxModule: registered at start, removed at close. */
export { InboxMetricsModule } from './inbox-metrics.module';
