import type { OutboxRelayHeartbeat } from '../outbox-stats.port';

/**
 * Why a relay counts as stalled, or undefined when it is fine: a running loop must either be
 * waiting (poll interval or backoff, with a known end) or have started its current round less
 * than `stallMs` ago. A wait that overran its end by `stallMs` counts as stalled too.
 */
export function relayStall(
  heartbeat: OutboxRelayHeartbeat,
  stallMs: number,
  now: number,
): string | undefined {
  if (!heartbeat.running) return 'the relay is not running';
  const lastSign = Math.max(heartbeat.lastTickAt, heartbeat.idleUntil);
  const silentMs = now - lastSign;
  if (silentMs > stallMs) return `the relay loop has not gone round for ${silentMs} ms`;
  return undefined;
}
