import { Counter, Gauge } from 'prom-client';
import type {
  OutboxRelayCounters,
  OutboxRelayStats,
  OutboxStats,
  OutboxStatsSource,
} from '@outbox-inbox/outbox';
import { MetricsRegistry } from './metrics-registry';

/**
 * The outbox as Prometheus sees it. Gauges come from the stats source at scrape time (one
 * round of queries per scrape; on failure `outbox_stats_up` is 0 and the gauges keep their
 * last values); counters mirror the in-process relay's counters.
 */
export class OutboxMetrics {
  private inFlight?: Promise<OutboxStats | undefined>;

  constructor(
    registry: MetricsRegistry,
    private readonly source: OutboxStatsSource,
    private readonly relay?: OutboxRelayStats | null,
  ) {
    const registers = [registry];
    const stats = () => this.stats();
    new Gauge({
      name: 'outbox_backlog_rows',
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
      registers,
      stats,
      'outbox_oldest_unsent_age_seconds',
      'Age of the oldest NEW or SENDING row',
      (s) => s.oldestUnsentAgeMs / 1000,
    );
    gauge(
      registers,
      stats,
      'outbox_dead_rows',
      'DEAD rows: never published, waiting for an operator',
      (s) => s.dead,
    );
    gauge(
      registers,
      stats,
      'outbox_retrying_rows',
      'NEW rows that failed at least once',
      (s) => s.retryingRows,
    );
    gauge(
      registers,
      stats,
      'outbox_aggregates_blocked_by_dead',
      'Aggregates whose later events wait behind a DEAD one',
      (s) => s.aggregatesBlockedByDead,
    );
    new Gauge({
      name: 'outbox_stats_up',
      help: '1 when the outbox stats could be read at this scrape, else 0',
      registers,
      async collect() {
        this.set((await stats()) ? 1 : 0);
      },
    });
    const counts = () => this.relay?.counts();
    counter(
      registers,
      counts,
      'outbox_published_total',
      'Rows this process published',
      'published',
    );
    counter(
      registers,
      counts,
      'outbox_publish_failures_total',
      'Failed publish attempts (rows) of this process, each retried or made DEAD',
      'publishFailures',
    );
    counter(
      registers,
      counts,
      'outbox_dead_total',
      'Rows this process made DEAD without a send (unpublishable)',
      'dead',
    );
    counter(
      registers,
      counts,
      'outbox_lease_lost_total',
      'Rows whose outcome was left to another relay after a lease expired',
      'leaseLost',
    );
    counter(
      registers,
      counts,
      'outbox_topic_held_total',
      'Rows handed back unsent because their topic is missing or denied; they keep their attempts',
      'topicHeld',
    );
    const faults = () => this.relay?.faults() ?? [];
    new Gauge({
      name: 'outbox_relay_faults',
      help: 'What holds the relay back now that no code can fix: 1 per missing or denied topic, table or grant',
      labelNames: ['kind', 'subject', 'code'],
      registers,
      collect() {
        this.reset();
        for (const f of faults()) {
          this.set({ kind: f.kind, subject: f.subject, code: f.code }, 1);
        }
      },
    });
    counter(
      registers,
      counts,
      'outbox_claims_handed_back_total',
      'Claims made ahead and handed back unsent because their lease no longer covered a send',
      'claimsHandedBack',
    );
  }

  /** One stats query per scrape: the gauges of one scrape collect together and share it. */
  private stats(): Promise<OutboxStats | undefined> {
    this.inFlight ??= this.source
      .stats()
      .catch(() => undefined)
      .finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }
}

function gauge(
  registers: MetricsRegistry[],
  stats: () => Promise<OutboxStats | undefined>,
  name: string,
  help: string,
  value: (stats: OutboxStats) => number,
): void {
  new Gauge({
    name,
    help,
    registers,
    async collect() {
      const current = await stats();
      if (current) this.set(value(current));
    },
  });
}

function counter(
  registers: MetricsRegistry[],
  counts: () => OutboxRelayCounters | undefined,
  name: string,
  help: string,
  field: keyof OutboxRelayCounters,
): void {
  new Counter({
    name,
    help,
    registers,
    collect() {
      const current = counts();
      if (!current) return;
      this.reset();
      this.inc(current[field]);
    },
  });
}
