import { Registry } from 'prom-client';
import type { OutboxRelayStats, OutboxStats, OutboxStatsSource } from '../outbox-stats.port';
import type { RelayFault } from '../relay/relay-faults';
import { registerOutboxMetrics } from './register-outbox-metrics';

const STATS: OutboxStats = {
  backlog: { NEW: 3, SENDING: 1, DEAD: 2 },
  oldestUnsentAgeMs: 1_500,
  retryingRows: 1,
  dead: 2,
  aggregatesBlockedByDead: 1,
  deadPolicy: 'block',
};

/** A stats source that answers `stats` until told to fail, counting the queries it ran. */
function statsSource(stats: OutboxStats) {
  const source = {
    queries: 0,
    failing: false,
    stats: async () => {
      source.queries += 1;
      if (source.failing) throw new Error('database unreachable');
      return stats;
    },
  };
  return source satisfies OutboxStatsSource;
}

const MISSING_TOPIC: RelayFault = {
  kind: 'topic',
  subject: 'shop.parcel.events',
  code: 'UNKNOWN_TOPIC_OR_PARTITION',
  since: '2026-12-07T03:00:00.000Z',
  rounds: 3,
  remedy: 'create the topic',
};

const relay: OutboxRelayStats = {
  counts: () => ({
    published: 40,
    publishFailures: 2,
    dead: 1,
    leaseLost: 3,
    claimsHandedBack: 4,
    topicHeld: 5,
    claimsWithRows: 6,
    claimMsWithRows: 150,
  }),
  heartbeat: () => ({ running: true, lastTickAt: 0, idleUntil: 0 }),
  faults: () => [MISSING_TOPIC],
};

/** Each sample of one scrape, as `name → labels → value`. */
async function scrape(registry: Registry): Promise<Map<string, Map<string, number>>> {
  const metrics = await registry.getMetricsAsJSON();
  return new Map(
    metrics.map((m) => [m.name, new Map(m.values.map((v) => [JSON.stringify(v.labels), v.value]))]),
  );
}

describe('registerOutboxMetrics, read through the outbox ports', () => {
  it('exports the backlog, the relay counters and its faults, with one query per scrape', async () => {
    const registry = new Registry();
    const source = statsSource(STATS);
    registerOutboxMetrics({ stats: source, relay }, { registry });
    const samples = await scrape(registry);
    expect(samples.get('outbox_backlog_rows')).toEqual(
      new Map([
        ['{"status":"NEW"}', 3],
        ['{"status":"SENDING"}', 1],
        ['{"status":"DEAD"}', 2],
      ]),
    );
    expect(samples.get('outbox_oldest_unsent_age_seconds')?.get('{}')).toBe(1.5);
    expect(samples.get('outbox_dead_rows')?.get('{}')).toBe(2);
    expect(samples.get('outbox_retrying_rows')?.get('{}')).toBe(1);
    expect(samples.get('outbox_aggregates_blocked_by_dead')?.get('{}')).toBe(1);
    expect(samples.get('outbox_stats_up')?.get('{}')).toBe(1);
    expect(samples.get('outbox_published_total')?.get('{}')).toBe(40);
    expect(samples.get('outbox_publish_failures_total')?.get('{}')).toBe(2);
    expect(samples.get('outbox_dead_total')?.get('{}')).toBe(1);
    expect(samples.get('outbox_lease_lost_total')?.get('{}')).toBe(3);
    expect(samples.get('outbox_relay_claims_total')?.get('{}')).toBe(6);
    expect(samples.get('outbox_relay_claim_seconds_total')?.get('{}')).toBe(0.15);
    expect(samples.get('outbox_claims_handed_back_total')?.get('{}')).toBe(4);
    expect(samples.get('outbox_topic_held_total')?.get('{}')).toBe(5);
    expect(samples.get('outbox_relay_faults')).toEqual(
      new Map([
        ['{"kind":"topic","subject":"shop.parcel.events","code":"UNKNOWN_TOPIC_OR_PARTITION"}', 1],
      ]),
    );
    expect(source.queries).toBe(1);
  });

  it('keeps the last gauges and reports stats down when the source fails', async () => {
    const registry = new Registry();
    const source = statsSource(STATS);
    registerOutboxMetrics({ stats: source, relay }, { registry });
    await scrape(registry);
    source.failing = true;
    const samples = await scrape(registry);
    expect(samples.get('outbox_stats_up')?.get('{}')).toBe(0);
    expect(samples.get('outbox_dead_rows')?.get('{}')).toBe(2);
  });

  it('leaves the relay counters at 0 and lists no fault in a process whose relay is off', async () => {
    const registry = new Registry();
    registerOutboxMetrics({ stats: statsSource(STATS), relay: null }, { registry });
    const samples = await scrape(registry);
    expect(samples.get('outbox_published_total')?.get('{}')).toBe(0);
    expect(samples.get('outbox_relay_faults')?.size ?? 0).toBe(0);
    expect(samples.get('outbox_backlog_rows')?.get('{"status":"NEW"}')).toBe(3);
  });

  it('puts the prefix before every name it registers, and answers those names', async () => {
    const registry = new Registry();
    const names = registerOutboxMetrics(
      { stats: statsSource(STATS) },
      { registry, prefix: 'shop_' },
    );
    const scraped = [...(await scrape(registry)).keys()].sort();
    expect(scraped).toEqual([...names].sort());
    expect(scraped).toContain('shop_outbox_dead_rows');
    expect(scraped.every((name) => name.startsWith('shop_outbox_'))).toBe(true);
  });
});
