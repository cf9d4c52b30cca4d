import { Registry } from 'prom-client';
import type { InboxCounters, InboxLatencyListener, InboxStatsSource } from '../inbox-stats.port';
import type { OpenGap } from '../operations/inbox-stats';
import { registerInboxMetrics } from './register-inbox-metrics';

/** Counters as a consumer that settled a few messages would hold them. */
function counters() {
  const listeners: InboxLatencyListener[] = [];
  const held = {
    outcomes: { applied: 5, ignored: 1, stale: 0, parked: 2, duplicate: 3 },
    drained: 2,
    retries: 4,
    deadLettered: 1,
    batchFallbacks: 0,
    unknownEventTypes: 1,
    heldNewerSchema: 0,
    deadLetterRejections: 0,
    pauses: 6,
    deploymentFaults: 1,
    groupJoins: 2,
    consumerCrashes: 0,
    fetches: 40,
    blocks: {
      list: () => [
        {
          topic: 't',
          partition: 0,
          since: '',
          rounds: 1,
          cause: 'dependency' as const,
          lastError: 'down',
        },
      ],
      blockedSeconds: () => 12,
    },
    partitionLags: () => [{ topic: 'shop.parcel.events', partition: 1, lag: 7 }],
    onLatency: (listener: InboxLatencyListener) => void listeners.push(listener),
    settle: (seconds: number) => listeners.forEach((l) => l(seconds, 'applied')),
  };
  return held satisfies InboxCounters;
}

const gaps: InboxStatsSource = {
  stats: () => Promise.reject(new Error('not read by the collector')),
  openGaps: async () => [{} as OpenGap, {} as OpenGap],
  groupMembership: () => ({ consumer: 'shipping', joined: true }),
};

/** The value of sample `name` with `labels` in one scrape. */
async function sample(registry: Registry, name: string, labels: object = {}) {
  const wanted = JSON.stringify(labels);
  const values = (await registry.getMetricsAsJSON()).flatMap((m) =>
    // A histogram's samples name themselves (`…_count`, `…_bucket`); others take the metric's.
    m.values.map((v) => ({
      ...v,
      metricName: (v as { metricName?: string }).metricName ?? m.name,
    })),
  );
  return values.find((v) => v.metricName === name && JSON.stringify(v.labels) === wanted)?.value;
}

describe('registerInboxMetrics, read through the inbox ports', () => {
  it('mirrors the counters under their names at scrape time', async () => {
    const registry = new Registry();
    const held = counters();
    registerInboxMetrics({ counters: held, stats: gaps }, { registry });
    expect(await sample(registry, 'inbox_messages_total', { outcome: 'applied' })).toBe(5);
    expect(await sample(registry, 'inbox_messages_total', { outcome: 'duplicate' })).toBe(3);
    expect(await sample(registry, 'inbox_dead_lettered_total')).toBe(1);
    expect(await sample(registry, 'inbox_retries_total')).toBe(4);
    expect(await sample(registry, 'inbox_partition_pauses_total')).toBe(6);
    expect(await sample(registry, 'inbox_deployment_faults_total')).toBe(1);
    expect(await sample(registry, 'inbox_fetch_requests_total')).toBe(40);
    expect(await sample(registry, 'inbox_group_joins_total')).toBe(2);
    expect(await sample(registry, 'inbox_blocked_seconds')).toBe(12);
    expect(await sample(registry, 'inbox_blocked_partitions')).toBe(1);
    expect(await sample(registry, 'inbox_open_gaps')).toBe(2);
    expect(
      await sample(registry, 'inbox_consumer_lag', {
        topic: 'shop.parcel.events',
        partition: '1',
      }),
    ).toBe(7);
    held.outcomes.applied = 6;
    expect(await sample(registry, 'inbox_messages_total', { outcome: 'applied' })).toBe(6);
  });

  it('observes each settled message in the processing histogram', async () => {
    const registry = new Registry();
    const held = counters();
    registerInboxMetrics({ counters: held }, { registry });
    held.settle(0.02);
    const count = await sample(registry, 'inbox_processing_seconds_count', { outcome: 'applied' });
    expect(count).toBe(1);
    // Without the stats source there is no gap gauge.
    expect(await sample(registry, 'inbox_open_gaps')).toBeUndefined();
  });

  it('puts the prefix before every name it registers, and answers those names', async () => {
    const registry = new Registry();
    const names = registerInboxMetrics(
      { counters: counters(), stats: gaps },
      { registry, prefix: 'shop_' },
    );
    const scraped = (await registry.getMetricsAsJSON()).map((m) => m.name).sort();
    expect(scraped).toEqual([...names].sort());
    expect(scraped).toContain('shop_inbox_dead_lettered_total');
    expect(scraped.every((name) => name.startsWith('shop_inbox_'))).toBe(true);
  });
});
