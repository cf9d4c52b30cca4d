/** Terminus health indicators of the inbox: the consumer (readiness) and the backlog (details). */
export { InboxHealthIndicator } from './inbox-health.indicator';
export type { InboxBacklogCheckOptions } from './inbox-health.indicator';
/** Provides InboxHealthIndicator (import it beside InboxModule). */
export { InboxHealthModule } from './inbox-health.module';
