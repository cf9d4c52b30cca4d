import { PartitionBlocks } from './partition-blocks';

describe('PartitionBlocks', () => {
  it('keeps a partition blocked from its first failure until it settles again', () => {
    let now = 1_000_000;
    const blocks = new PartitionBlocks({ baseDelayMs: 100, maxDelayMs: 1_000 }, () => now);
    expect(blocks.blockedSeconds()).toBe(0);
    blocks.fail('t', 0, 'ECONNREFUSED');
    now += 5_000;
    blocks.fail('t', 0, 'PROTOCOL_CONNECTION_LOST');
    expect(blocks.blockedSeconds()).toBe(5);
    expect(blocks.list()).toEqual([
      {
        topic: 't',
        partition: 0,
        since: new Date(1_000_000).toISOString(),
        rounds: 2,
        lastError: 'PROTOCOL_CONNECTION_LOST',
      },
    ]);
    blocks.clear('t', 0);
    expect(blocks.blockedSeconds()).toBe(0);
    expect(blocks.isBlocked('t', 0)).toBe(false);
  });

  it('waits longer each round, never past the cap', () => {
    const blocks = new PartitionBlocks({ baseDelayMs: 100, maxDelayMs: 1_000 });
    const delays = Array.from({ length: 12 }, () => blocks.fail('t', 1, 'x'));
    expect(delays[0]).toBeLessThan(100);
    expect(Math.max(...delays)).toBeLessThanOrEqual(1_000);
    expect(delays[11]).toBeGreaterThanOrEqual(500);
  });
});
