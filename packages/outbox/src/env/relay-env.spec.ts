import { resolveRelayOptions } from '../relay/outbox-relay.options';
import { relayOptionsFromEnv } from './relay-env';

describe('relayOptionsFromEnv', () => {
  it('keeps the defaults for unset variables', () => {
    expect(relayOptionsFromEnv({})).toEqual({});
    expect(resolveRelayOptions(relayOptionsFromEnv({}))).toEqual(resolveRelayOptions());
  });

  it('maps the set ones, and the result still passes validation', () => {
    const relay = relayOptionsFromEnv({
      OUTBOX_RELAY_ENABLED: false,
      OUTBOX_LEASE_MS: 2_000,
      OUTBOX_REQUEST_TIMEOUT_MS: 400,
      OUTBOX_PRODUCER_RETRIES: 1,
    });
    expect(relay).toEqual({
      enabled: false,
      leaseMs: 2_000,
      requestTimeoutMs: 400,
      producerRetries: 1,
    });
    const { enabled: _enabled, ...options } = relay;
    expect(resolveRelayOptions(options)).toMatchObject({ leaseMs: 2_000 });
  });

  it('lets validation refuse a lease shorter than a send can take', () => {
    const { enabled: _enabled, ...options } = relayOptionsFromEnv({
      OUTBOX_LEASE_MS: 500,
      OUTBOX_REQUEST_TIMEOUT_MS: 1_000,
    });
    expect(() => resolveRelayOptions(options)).toThrow(/leaseMs/);
  });
});
