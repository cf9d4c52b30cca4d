import { InboxMetrics } from './inbox-metrics';

describe('InboxMetrics', () => {
  it('counts outcomes and hands each latency to every listener', () => {
    const metrics = new InboxMetrics();
    const seen: Array<[number, string]> = [];
    metrics.onLatency((seconds, outcome) => seen.push([seconds, outcome]));
    metrics.count('applied', 2, 0.004);
    metrics.count('duplicate', 0);
    expect(metrics.outcomes).toMatchObject({ applied: 1, duplicate: 1 });
    expect(metrics.drained).toBe(2);
    expect(seen).toEqual([[0.004, 'applied']]);
  });

  it('keeps the latest lag per partition, never below zero, until cleared', () => {
    const metrics = new InboxMetrics();
    metrics.recordLag('t', 0, 7);
    metrics.recordLag('t', 0, 3);
    metrics.recordLag('t', 1, -1);
    expect(metrics.partitionLags()).toEqual([
      { topic: 't', partition: 0, lag: 3 },
      { topic: 't', partition: 1, lag: 0 },
    ]);
    metrics.clearLag();
    expect(metrics.partitionLags()).toEqual([]);
  });
});
