/** What a consuming service reads from its environment for its Kafka consumer. */
export interface ConsumerTimingEnv {
  KAFKA_SESSION_TIMEOUT_MS?: number;
  KAFKA_HEARTBEAT_INTERVAL_MS?: number;
  KAFKA_FETCH_MAX_WAIT_MS?: number;
}

/**
 * The consumer's group timing and fetch wait from KAFKA_SESSION_TIMEOUT_MS,
 * KAFKA_HEARTBEAT_INTERVAL_MS and KAFKA_FETCH_MAX_WAIT_MS; unset ones keep the defaults.
 */
export function groupTimingFromEnv(env: ConsumerTimingEnv): {
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  maxWaitTimeMs?: number;
} {
  const timing = {
    sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
    heartbeatIntervalMs: env.KAFKA_HEARTBEAT_INTERVAL_MS,
    maxWaitTimeMs: env.KAFKA_FETCH_MAX_WAIT_MS,
  };
  return Object.fromEntries(Object.entries(timing).filter(([, v]) => v !== undefined));
}
