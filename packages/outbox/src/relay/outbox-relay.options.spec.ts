import { DEFAULT_RELAY_OPTIONS, resolveRelayOptions } from './outbox-relay.options';

describe('resolveRelayOptions', () => {
  it('accepts the defaults as they are', () => {
    expect(resolveRelayOptions()).toEqual(DEFAULT_RELAY_OPTIONS);
  });

  it('merges a partial backoff with the default one', () => {
    expect(resolveRelayOptions({ backoff: { baseDelayMs: 10 } as never }).backoff).toEqual({
      baseDelayMs: 10,
      maxDelayMs: DEFAULT_RELAY_OPTIONS.backoff.maxDelayMs,
    });
  });

  it('names every invalid field in one OutboxError', () => {
    const error = thrownBy(() =>
      resolveRelayOptions({ batchSize: 0, deadPolicy: 'skip' as never, pollIntervalMs: 1.5 }),
    );
    expect(error).toMatchObject({ name: 'OutboxError', code: 'OUTBOX_INVALID_OPTIONS' });
    for (const field of ['batchSize', 'deadPolicy', 'pollIntervalMs']) {
      expect(error.message).toContain(field);
    }
  });

  it('takes 1 to 4 claims ahead, whole numbers only', () => {
    expect(resolveRelayOptions({ claimsAhead: 1 }).claimsAhead).toBe(1);
    expect(resolveRelayOptions({ claimsAhead: 4 }).claimsAhead).toBe(4);
    for (const claimsAhead of [0, 5, 1.5]) {
      expect(() => resolveRelayOptions({ claimsAhead })).toThrow(/claimsAhead/);
    }
  });

  it('keeps a produce request under 900,000 bytes by default, and takes 1,000 to 100,000,000', () => {
    expect(DEFAULT_RELAY_OPTIONS.maxBatchBytes).toBe(900_000);
    expect(resolveRelayOptions({ maxBatchBytes: 1_000 }).maxBatchBytes).toBe(1_000);
    for (const maxBatchBytes of [999, 100_000_001, 1_500.5]) {
      expect(() => resolveRelayOptions({ maxBatchBytes })).toThrow(/maxBatchBytes/);
    }
  });

  it('refuses a lease shorter than one send with all its kafkajs retries', () => {
    expect(() =>
      resolveRelayOptions({ leaseMs: 1_000, requestTimeoutMs: 1_000, producerRetries: 2 }),
    ).toThrow(/leaseMs .*3000/);
  });

  it('refuses unknown options and a backoff ceiling below its base', () => {
    expect(() => resolveRelayOptions({ batchsize: 5 } as never)).toThrow(/batchsize/);
    expect(() => resolveRelayOptions({ backoff: { baseDelayMs: 100, maxDelayMs: 10 } })).toThrow(
      /backoff.maxDelayMs/,
    );
  });
});

function thrownBy(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}
