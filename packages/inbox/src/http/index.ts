/** Mounts the /inbox operator endpoints; import it beside InboxModule. */
export { InboxHttpModule } from './inbox-http.module';
export type { InboxHttpOptions } from './inbox-http.module';
/** The /inbox HTTP controller (mounted by InboxHttpModule). */
export { InboxHttpController } from './inbox.http.controller';
/**
 * Group timing from a service's KAFKA_SESSION_TIMEOUT_MS / KAFKA_HEARTBEAT_INTERVAL_MS /
 * KAFKA_FETCH_MAX_WAIT_MS.
 */
export { groupTimingFromEnv } from './group-timing-env';
/**
 * Dedup window, blocked backoff and gap alert from INBOX_DEDUP_WINDOW_MS /
 * INBOX_BLOCKED_BACKOFF_MAX_MS / INBOX_GAP_ALERT_MS.
 */
export { inboxOptionsFromEnv } from './group-timing-env';
