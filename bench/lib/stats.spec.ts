import { dueOffsetsMs, runAtFixedRate } from './rate-schedule';
import { median, spread } from './stats';

describe('bench statistics', () => {
  it('takes nearest-rank percentiles and the max', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted
    expect(spread(values)).toEqual({ p50: 50, p99: 99, max: 100, count: 100 });
    expect(median([3, 1, 2])).toBe(2);
    expect(median([5, 1])).toBe(1);
  });

  it('gives NaN for no values instead of inventing a number', () => {
    const empty = spread([]);
    expect([empty.p50, empty.p99, empty.max].every(Number.isNaN)).toBe(true);
    expect(empty.count).toBe(0);
  });
});

describe('fixed-rate schedule', () => {
  it('spaces sends 1000/rate ms apart from the start', () => {
    expect(dueOffsetsMs(4, 200)).toEqual([0, 5, 10, 15]);
    expect(dueOffsetsMs(0, 10)).toEqual([]);
  });

  it('rejects a rate or count that cannot be scheduled', () => {
    expect(() => dueOffsetsMs(3, 0)).toThrow(/rate/);
    expect(() => dueOffsetsMs(3, Infinity)).toThrow(/rate/);
    expect(() => dueOffsetsMs(-1, 10)).toThrow(/count/);
  });

  it('does not wait for an answer before the next send (open loop)', async () => {
    const started: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const run = runAtFixedRate(3, 1000, async (i) => {
      started.push(i);
      await gate; // no answer until every send went out
      return i * 2;
    });
    // All three sends start although none has answered: the gate opens only afterwards.
    while (started.length < 3) await new Promise((resolve) => setImmediate(resolve));
    release();
    const { results } = await run;
    expect(started).toEqual([0, 1, 2]);
    expect(results).toEqual([0, 2, 4]);
  });
});
