/** When readiness turns 503 besides an unreachable database, and what details call degraded. */
export interface ReadinessThresholds {
  /** Oldest unsent (NEW or SENDING) outbox row older than this: degraded in /health/details. */
  outboxMaxAgeMs: number;
  /** Relay loop neither went round nor is waiting for longer than this: not ready. */
  relayStallMs: number;
  /** Each dependency check gives up after this long and counts as down. */
  checkTimeoutMs: number;
}

/** Defaults: five minutes of outbox lag, one minute of a stuck relay, two-second probes. */
export const DEFAULT_READINESS: Readonly<ReadinessThresholds> = Object.freeze({
  outboxMaxAgeMs: 300_000,
  relayStallMs: 60_000,
  checkTimeoutMs: 2_000,
});
