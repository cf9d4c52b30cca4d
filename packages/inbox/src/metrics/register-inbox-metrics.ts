import { Counter, Gauge, Histogram, register as globalRegistry, Registry } from 'prom-client';
import type { InboxCounters, InboxStatsSource } from '../inbox-stats.port';

/** What the inbox metrics read: InboxModule's read-only ports (`stats` for the open gaps). */
export interface InboxMetricsSources {
  counters: InboxCounters;
  stats?: InboxStatsSource | null;
}

/** Where the inbox metrics go and what they are called. */
export interface InboxMetricsOptions {
  /** The registry to register on; prom-client's global registry by default. */
  registry?: Registry;
  /** Put before every name: `shop_` gives `shop_inbox_messages_total`. None by default. */
  prefix?: string;
}

/**
 * Registers the inbox consumer's metrics and answers their names (to remove them again).
 * Nothing runs on a timer: counters mirror InboxCounters when scraped, the processing time is
 * observed as messages settle, the lag per partition comes from the high watermark of the
 * last batch fetched, and `inbox_open_gaps` reads the database when scraped (keeping its last
 * value when it cannot).
 */
export function registerInboxMetrics(
  sources: InboxMetricsSources,
  options: InboxMetricsOptions = {},
): string[] {
  const registers = [options.registry ?? globalRegistry];
  const name = (base: string) => `${options.prefix ?? ''}${base}`;
  const names: string[] = [];
  const { counters, stats } = sources;
  if (stats) {
    names.push(name('inbox_open_gaps'));
    new Gauge({
      name: name('inbox_open_gaps'),
      help: 'Aggregates whose next version has been missing for longer than the gap alert time (events parked behind it)',
      registers,
      async collect() {
        await stats.openGaps().then(
          (gaps) => this.set(gaps.length),
          () => undefined,
        );
      },
    });
  }
  names.push(name('inbox_messages_total'));
  new Counter({
    name: name('inbox_messages_total'),
    help: 'Messages settled by the inbox, by outcome: applied (processed), duplicate (skipped), parked (early, waiting for an earlier version), stale, ignored',
    labelNames: ['outcome'],
    registers,
    collect() {
      this.reset();
      for (const [outcome, n] of Object.entries(counters.outcomes)) this.inc({ outcome }, n);
    },
  });
  const mirror = (base: string, help: string, value: () => number) => {
    names.push(name(base));
    new Counter({
      name: name(base),
      help,
      registers,
      collect() {
        this.reset();
        this.inc(value());
      },
    });
  };
  mirror(
    'inbox_dead_lettered_total',
    'Messages sent to the dead-letter topic',
    () => counters.deadLettered,
  );
  mirror(
    'inbox_retries_total',
    'Transaction attempts retried after a transient failure',
    () => counters.retries,
  );
  mirror(
    'inbox_drained_total',
    'Parked events applied once their predecessor arrived',
    () => counters.drained,
  );
  mirror(
    'inbox_batch_fallbacks_total',
    'Batches settled message by message after failing together',
    () => counters.batchFallbacks,
  );
  mirror(
    'inbox_partition_pauses_total',
    'Times a partition was paused because a dependency (database, broker) was unavailable',
    () => counters.pauses,
  );
  mirror(
    'inbox_deployment_faults_total',
    'Times a missing table, column or grant began to hold the consumer back (once per thing missing); its partitions stay paused, nothing is dead-lettered',
    () => counters.deploymentFaults,
  );
  mirror(
    'inbox_group_joins_total',
    'Times the consumer joined its group: its first join, then one per rebalance',
    () => counters.groupJoins,
  );
  mirror(
    'inbox_consumer_crashes_total',
    'Times the consumer crashed and was started again (a rebalance is never one)',
    () => counters.consumerCrashes,
  );
  mirror(
    'inbox_fetch_requests_total',
    "Fetch requests the consumer sent, one per broker it reads from, each answered when data arrives or its wait (the inbox's kafka.maxWaitTimeMs) is over",
    () => counters.fetches,
  );
  mirror(
    'inbox_dead_letter_rejected_total',
    'Dead-letter publishes the broker refused for good (topic deleted, not authorized, message too large); the partition stays paused until fixed',
    () => counters.deadLetterRejections,
  );
  mirror(
    'inbox_unknown_event_types_total',
    'Events of a type this consumer does not know: recorded in the inbox and skipped, not dead-lettered',
    () => counters.unknownEventTypes,
  );
  mirror(
    'inbox_held_newer_schema_total',
    'Events parked because their schema version is newer than this consumer knows',
    () => counters.heldNewerSchema,
  );
  names.push(name('inbox_blocked_seconds'));
  new Gauge({
    name: name('inbox_blocked_seconds'),
    help: 'Seconds since the oldest partition of this consumer was blocked by a transient failure (0 when none is)',
    registers,
    collect() {
      this.set(counters.blocks.blockedSeconds());
    },
  });
  names.push(name('inbox_blocked_partitions'));
  new Gauge({
    name: name('inbox_blocked_partitions'),
    help: 'Partitions paused now because a dependency is unavailable',
    registers,
    collect() {
      this.set(counters.blocks.list().length);
    },
  });
  names.push(name('inbox_processing_seconds'));
  const latency = new Histogram({
    name: name('inbox_processing_seconds'),
    help: 'Time of the inbox transaction that settled a message (gate, handler, commit), by outcome',
    labelNames: ['outcome'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  });
  counters.onLatency((seconds, outcome) => latency.observe({ outcome }, seconds));
  names.push(name('inbox_consumer_lag'));
  new Gauge({
    name: name('inbox_consumer_lag'),
    help: 'Messages behind the partition high watermark, as of the last batch fetched',
    labelNames: ['topic', 'partition'],
    registers,
    collect() {
      this.reset();
      for (const { topic, partition, lag } of counters.partitionLags()) {
        this.set({ topic, partition: String(partition) }, lag);
      }
    },
  });
  return names;
}
