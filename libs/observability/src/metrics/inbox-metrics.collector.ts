import { Counter, Gauge, Histogram } from 'prom-client';
import type { InboxCounters, InboxOutcome, InboxStatsSource } from '@outbox-inbox/inbox';
import { MetricsRegistry } from './metrics-registry';

/**
 * The inbox consumer as Prometheus sees it: counters mirror InboxCounters at scrape time, the
 * processing latency is observed as messages settle, and the lag per partition comes from
 * the high watermark of the last batch fetched.
 */
export class InboxMetricsCollector {
  constructor(registry: MetricsRegistry, metrics: InboxCounters, stats?: InboxStatsSource) {
    const registers = [registry];
    if (stats) {
      new Gauge({
        name: 'inbox_open_gaps',
        help: 'Aggregates whose next version has been missing for longer than the gap alert time (events parked behind it)',
        registers,
        async collect() {
          // Keeps its last value when the database cannot be read at this scrape.
          await stats.openGaps().then(
            (gaps) => this.set(gaps.length),
            () => undefined,
          );
        },
      });
    }
    new Counter({
      name: 'inbox_messages_total',
      help: 'Messages settled by the inbox, by outcome: applied (processed), duplicate (skipped), parked (early, waiting for an earlier version), stale, ignored',
      labelNames: ['outcome'],
      registers,
      collect() {
        this.reset();
        for (const [outcome, n] of Object.entries(metrics.outcomes)) this.inc({ outcome }, n);
      },
    });
    const mirror = (name: string, help: string, value: () => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          this.reset();
          this.inc(value());
        },
      });
    mirror(
      'inbox_dead_lettered_total',
      'Messages sent to the dead-letter topic',
      () => metrics.deadLettered,
    );
    mirror(
      'inbox_retries_total',
      'Transaction attempts retried after a transient failure',
      () => metrics.retries,
    );
    mirror(
      'inbox_drained_total',
      'Parked events applied once their predecessor arrived',
      () => metrics.drained,
    );
    mirror(
      'inbox_batch_fallbacks_total',
      'Batches settled message by message after failing together',
      () => metrics.batchFallbacks,
    );

    mirror(
      'inbox_partition_pauses_total',
      'Times a partition was paused because a dependency (database, broker) was unavailable',
      () => metrics.pauses,
    );
    mirror(
      'inbox_deployment_faults_total',
      'Times a missing table, column or grant began to hold the consumer back (once per thing missing); its partitions stay paused, nothing is dead-lettered',
      () => metrics.deploymentFaults,
    );
    mirror(
      'inbox_group_joins_total',
      'Times the consumer joined its group: its first join, then one per rebalance',
      () => metrics.groupJoins,
    );
    mirror(
      'inbox_consumer_crashes_total',
      'Times the consumer crashed and was started again (a rebalance is never one)',
      () => metrics.consumerCrashes,
    );
    mirror(
      'inbox_fetch_requests_total',
      'Fetch requests the consumer sent, one per broker it reads from, each answered when data arrives or its wait (KAFKA_FETCH_MAX_WAIT_MS) is over',
      () => metrics.fetches,
    );
    mirror(
      'inbox_dead_letter_rejected_total',
      'Dead-letter publishes the broker refused for good (topic deleted, not authorized, message too large); the partition stays paused until fixed',
      () => metrics.deadLetterRejections,
    );
    mirror(
      'inbox_unknown_event_types_total',
      'Events of a type this consumer does not know: recorded in the inbox and skipped, not dead-lettered',
      () => metrics.unknownEventTypes,
    );
    mirror(
      'inbox_held_newer_schema_total',
      'Events parked because their schema version is newer than this consumer knows',
      () => metrics.heldNewerSchema,
    );
    new Gauge({
      name: 'inbox_blocked_seconds',
      help: 'Seconds since the oldest partition of this consumer was blocked by a transient failure (0 when none is)',
      registers,
      collect() {
        this.set(metrics.blocks.blockedSeconds());
      },
    });
    new Gauge({
      name: 'inbox_blocked_partitions',
      help: 'Partitions paused now because a dependency is unavailable',
      registers,
      collect() {
        this.set(metrics.blocks.list().length);
      },
    });

    const latency = new Histogram({
      name: 'inbox_processing_seconds',
      help: 'Time of the inbox transaction that settled a message (gate, handler, commit), by outcome',
      labelNames: ['outcome'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    metrics.onLatency((seconds, outcome: InboxOutcome) => latency.observe({ outcome }, seconds));

    new Gauge({
      name: 'inbox_consumer_lag',
      help: 'Messages behind the partition high watermark, as of the last batch fetched',
      labelNames: ['topic', 'partition'],
      registers,
      collect() {
        this.reset();
        for (const { topic, partition, lag } of metrics.partitionLags()) {
          this.set({ topic, partition: String(partition) }, lag);
        }
      },
    });
  }
}
