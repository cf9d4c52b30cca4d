/** The consumer group timing a service reads from KAFKA_SESSION_TIMEOUT_MS / KAFKA_HEARTBEAT_INTERVAL_MS. */
export function groupTimingFromEnv(env: {
  KAFKA_SESSION_TIMEOUT_MS?: number;
  KAFKA_HEARTBEAT_INTERVAL_MS?: number;
}): { sessionTimeoutMs?: number; heartbeatIntervalMs?: number } {
  const timing = {
    sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
    heartbeatIntervalMs: env.KAFKA_HEARTBEAT_INTERVAL_MS,
  };
  return Object.fromEntries(Object.entries(timing).filter(([, v]) => v !== undefined));
}
