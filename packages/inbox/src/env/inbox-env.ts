/** What a consuming service reads from its environment for its inbox. */
export interface InboxEnv {
  INBOX_DEDUP_WINDOW_MS?: number;
  INBOX_BLOCKED_BACKOFF_MAX_MS?: number;
  INBOX_GAP_ALERT_MS?: number;
}

/**
 * The inbox options a service takes from INBOX_DEDUP_WINDOW_MS, INBOX_BLOCKED_BACKOFF_MAX_MS
 * and INBOX_GAP_ALERT_MS (validated by the service's config class; resolveInboxOptions
 * checks them again); unset ones keep the defaults.
 */
export function inboxOptionsFromEnv(env: InboxEnv): {
  dedupWindowMs?: number;
  blockedBackoff?: { maxDelayMs: number };
  gapAlertMs?: number;
} {
  return {
    ...(env.INBOX_GAP_ALERT_MS !== undefined && { gapAlertMs: env.INBOX_GAP_ALERT_MS }),
    ...(env.INBOX_DEDUP_WINDOW_MS !== undefined && { dedupWindowMs: env.INBOX_DEDUP_WINDOW_MS }),
    ...(env.INBOX_BLOCKED_BACKOFF_MAX_MS !== undefined && {
      blockedBackoff: { maxDelayMs: env.INBOX_BLOCKED_BACKOFF_MAX_MS },
    }),
  };
}
