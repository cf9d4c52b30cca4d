import { PartitionBlocks } from './partition-blocks';

describe('PartitionBlocks', () => {
  it('keeps a partition blocked from its first failure until it settles again', () => {
    let now = 1_000_000;
    const blocks = new PartitionBlocks({ baseDelayMs: 100, maxDelayMs: 1_000 }, () => now);
    expect(blocks.blockedSeconds()).toBe(0);
    blocks.fail('t', 0, { cause: 'dependency', error: 'ECONNREFUSED' });
    now += 5_000;
    blocks.fail('t', 0, { cause: 'dependency', error: 'PROTOCOL_CONNECTION_LOST' });
    expect(blocks.blockedSeconds()).toBe(5);
    expect(blocks.list()).toEqual([
      {
        topic: 't',
        partition: 0,
        since: new Date(1_000_000).toISOString(),
        rounds: 2,
        cause: 'dependency',
        lastError: 'PROTOCOL_CONNECTION_LOST',
      },
    ]);
    blocks.clear('t', 0);
    expect(blocks.blockedSeconds()).toBe(0);
    expect(blocks.isBlocked('t', 0)).toBe(false);
  });

  it('waits longer each round, never past the cap', () => {
    const blocks = new PartitionBlocks({ baseDelayMs: 100, maxDelayMs: 1_000 });
    const delays = Array.from({ length: 12 }, () =>
      blocks.fail('t', 1, { cause: 'dependency', error: 'x' }),
    );
    expect(delays[0]).toBeLessThan(100);
    expect(Math.max(...delays)).toBeLessThanOrEqual(1_000);
    expect(delays[11]).toBeGreaterThanOrEqual(500);
  });

  it('names what a deployment fault misses while some partition waits for it', () => {
    const blocks = new PartitionBlocks({ baseDelayMs: 100, maxDelayMs: 1_000 });
    const missing = { cause: 'deployment', subject: 't_inbox', error: '42P01: …' } as const;
    blocks.fail('t', 0, missing);
    blocks.fail('t', 1, missing);
    expect(blocks.list().map((b) => [b.partition, b.cause, b.subject])).toEqual([
      [0, 'deployment', 't_inbox'],
      [1, 'deployment', 't_inbox'],
    ]);
    blocks.clear('t', 0);
    expect(blocks.isMissing('t_inbox')).toBe(true);
    blocks.clear('t', 1);
    expect(blocks.isMissing('t_inbox')).toBe(false);
  });
});
