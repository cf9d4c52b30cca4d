import { Counter, Gauge, register as globalRegistry, Registry } from 'prom-client';
import type {
  OutboxRelayCounters,
  OutboxRelayStats,
  OutboxStats,
  OutboxStatsSource,
} from '../outbox-stats.port';

/** What the outbox metrics read: OutboxModule's read-only ports (the relay is null where off). */
export interface OutboxMetricsSources {
  stats: OutboxStatsSource;
  relay?: OutboxRelayStats | null;
}

/** Where the outbox metrics go and what they are called. */
export interface OutboxMetricsOptions {
  /** The registry to register on; prom-client's global registry by default. */
  registry?: Registry;
  /** Put before every name: `shop_` gives `shop_outbox_backlog_rows`. None by default. */
  prefix?: string;
}

/**
 * Registers the outbox's metrics and answers their names (to remove them again). Nothing runs
 * on a timer: gauges read `stats()` when scraped (one round of queries per scrape, shared by
 * every gauge; when it fails `outbox_stats_up` is 0 and the others keep their last values),
 * counters mirror the relay's counters of this process, and `outbox_relay_faults` lists what
 * holds its rows back now (a missing table, column, grant or topic).
 */
export function registerOutboxMetrics(
  sources: OutboxMetricsSources,
  options: OutboxMetricsOptions = {},
): string[] {
  const registers = [options.registry ?? globalRegistry];
  const name = (base: string) => `${options.prefix ?? ''}${base}`;
  const stats = sharedPerScrape(sources.stats);
  const names: string[] = [];
  const gauge = (base: string, help: string, value: (s: OutboxStats) => number) => {
    names.push(name(base));
    new Gauge({
      name: name(base),
      help,
      registers,
      async collect() {
        const current = await stats();
        if (current) this.set(value(current));
      },
    });
  };
  names.push(name('outbox_backlog_rows'));
  new Gauge({
    name: name('outbox_backlog_rows'),
    help: 'Outbox rows waiting to be published (NEW, SENDING) or given up on (DEAD)',
    labelNames: ['status'],
    registers,
    async collect() {
      const current = await stats();
      if (!current) return;
      for (const [status, rows] of Object.entries(current.backlog)) this.set({ status }, rows);
    },
  });
  gauge(
    'outbox_oldest_unsent_age_seconds',
    'Age of the oldest NEW or SENDING row: how far the relay lags behind the writers',
    (s) => s.oldestUnsentAgeMs / 1000,
  );
  gauge('outbox_dead_rows', 'DEAD rows: never published, waiting for an operator', (s) => s.dead);
  gauge('outbox_retrying_rows', 'NEW rows that failed at least once', (s) => s.retryingRows);
  gauge(
    'outbox_aggregates_blocked_by_dead',
    'Aggregates whose later events wait behind a DEAD one',
    (s) => s.aggregatesBlockedByDead,
  );
  names.push(name('outbox_stats_up'));
  new Gauge({
    name: name('outbox_stats_up'),
    help: '1 when the outbox stats could be read at this scrape, else 0',
    registers,
    async collect() {
      this.set((await stats()) ? 1 : 0);
    },
  });
  const relay = sources.relay;
  const counter = (base: string, help: string, field: keyof OutboxRelayCounters, scale = 1) => {
    names.push(name(base));
    new Counter({
      name: name(base),
      help,
      registers,
      collect() {
        const current = relay?.counts();
        if (!current) return;
        this.reset();
        this.inc(current[field] * scale);
      },
    });
  };
  counter('outbox_published_total', 'Rows this process published', 'published');
  counter(
    'outbox_publish_failures_total',
    'Failed publish attempts (rows) of this process, each retried or made DEAD',
    'publishFailures',
  );
  counter(
    'outbox_dead_total',
    'Rows this process made DEAD without a send (unpublishable)',
    'dead',
  );
  counter(
    'outbox_lease_lost_total',
    'Rows whose outcome was left to another relay after a lease expired',
    'leaseLost',
  );
  counter(
    'outbox_claims_handed_back_total',
    'Claims made ahead and handed back unsent because their lease no longer covered a send',
    'claimsHandedBack',
  );
  counter('outbox_relay_claims_total', 'Claims of this process that took rows', 'claimsWithRows');
  counter(
    'outbox_relay_claim_seconds_total',
    'Time those claims took, from start to rows in hand (event-loop waits included)',
    'claimMsWithRows',
    1 / 1000,
  );
  counter(
    'outbox_topic_held_total',
    'Rows handed back unsent because their topic is missing or denied; they keep their attempts',
    'topicHeld',
  );
  names.push(name('outbox_relay_faults'));
  new Gauge({
    name: name('outbox_relay_faults'),
    help: "1 for each fault holding this process's relay back now: a missing table, column or grant (schema), a missing or refused topic (topic)",
    labelNames: ['kind', 'subject', 'code'],
    registers,
    collect() {
      this.reset();
      for (const fault of relay?.faults() ?? []) {
        this.set({ kind: fault.kind, subject: fault.subject, code: fault.code }, 1);
      }
    },
  });
  return names;
}

/** `stats()` once per scrape: the gauges of one scrape collect together and share the query. */
function sharedPerScrape(source: OutboxStatsSource): () => Promise<OutboxStats | undefined> {
  let inFlight: Promise<OutboxStats | undefined> | undefined;
  return () =>
    (inFlight ??= source
      .stats()
      .catch(() => undefined)
      .finally(() => (inFlight = undefined)));
}
