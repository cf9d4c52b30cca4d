import { OutboxRelayOptions } from '../relay/outbox-relay.options';

/** The relay settings a service reads from its environment (an app declares and validates them in its config). */
export interface OutboxRelayEnv {
  OUTBOX_RELAY_ENABLED?: boolean;
  OUTBOX_LEASE_MS?: number;
  OUTBOX_POLL_INTERVAL_MS?: number;
  OUTBOX_REQUEST_TIMEOUT_MS?: number;
  OUTBOX_PRODUCER_RETRIES?: number;
}

/** OutboxModule's `relay` option from those settings; unset ones keep the library's defaults. */
export function relayOptionsFromEnv(
  env: OutboxRelayEnv,
): Partial<OutboxRelayOptions> & { enabled?: boolean } {
  const options: Partial<OutboxRelayOptions> & { enabled?: boolean } = {
    enabled: env.OUTBOX_RELAY_ENABLED,
    leaseMs: env.OUTBOX_LEASE_MS,
    pollIntervalMs: env.OUTBOX_POLL_INTERVAL_MS,
    requestTimeoutMs: env.OUTBOX_REQUEST_TIMEOUT_MS,
    producerRetries: env.OUTBOX_PRODUCER_RETRIES,
  };
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}
