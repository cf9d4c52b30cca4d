import { alternatingRounds } from './alternating-rounds';

describe('alternating rounds', () => {
  it('runs every series once per round, in the order given, and reports each median', async () => {
    const calls: string[] = [];
    const rates = { a: [3, 1, 2], b: [10, 30, 20] };
    const next = (name: 'a' | 'b') => async () => {
      calls.push(name);
      return rates[name].shift()!;
    };
    const lines: string[] = [];

    const { runs, median } = await alternatingRounds(3, { a: next('a'), b: next('b') }, (line) =>
      lines.push(line),
    );

    expect(calls).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
    expect(runs).toEqual({ a: [3, 1, 2], b: [10, 30, 20] });
    expect(median).toEqual({ a: 2, b: 20 });
    expect(lines[0]).toBe('round 1: a 3, b 10 events/s');
  });
});
