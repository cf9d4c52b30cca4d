/** Terminus health indicators of the outbox: the relay (readiness) and the backlog (details). */
export { OutboxHealthIndicator } from './outbox-health.indicator';
export type { OutboxBacklogCheckOptions, RelayCheckOptions } from './outbox-health.indicator';
/** Provides OutboxHealthIndicator (import it beside OutboxModule). */
export { OutboxHealthModule } from './outbox-health.module';
