import { decideRetry } from './retry-decision';

const backoff = { baseDelayMs: 100, maxDelayMs: 1_000 };

describe('decideRetry', () => {
  it('doubles the delay per attempt, with jitter in the upper half, up to the ceiling', () => {
    const low = (attempt: number) => decideRetry(attempt, 10, backoff, () => 0);
    const high = (attempt: number) => decideRetry(attempt, 10, backoff, () => 0.999);
    expect([1, 2, 3, 4, 5].map((a) => low(a))).toEqual(
      [50, 100, 200, 400, 500].map((delayMs) => ({ kind: 'retry', delayMs })),
    );
    expect(high(1)).toEqual({ kind: 'retry', delayMs: 99 });
    expect(high(9)).toEqual({ kind: 'retry', delayMs: 999 });
  });

  it('gives up as DEAD once the attempts are used up', () => {
    expect(decideRetry(3, 3, backoff)).toEqual({ kind: 'dead' });
    expect(decideRetry(2, 3, backoff).kind).toBe('retry');
  });
});
