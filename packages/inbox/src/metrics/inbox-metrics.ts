import { BackoffPolicy } from '@outbox-inbox/database';
import { InboxOutcome } from '../apply/inbox-processor';
import { InboxCounters, InboxLatencyListener, PartitionLag } from '../inbox-stats.port';
import type { ConsumerFault } from './consumer-fault';
import { PartitionBlocks } from './partition-blocks';

/**
 * Counters since this process started; the durable counts come from the tables. Exporters
 * (Prometheus) read the counters when scraped and subscribe to latencies with `onLatency`.
 */
export class InboxMetrics implements InboxCounters {
  readonly outcomes: Record<InboxOutcome, number> = {
    applied: 0,
    ignored: 0,
    stale: 0,
    parked: 0,
    duplicate: 0,
  };
  drained = 0;
  retries = 0;
  deadLettered = 0;
  /** Batches that failed and were settled message by message. */
  batchFallbacks = 0;
  /** Events of a type this consumer's registry does not know: recorded and skipped. */
  unknownEventTypes = 0;
  /** Events held (parked) because their schema version is newer than this consumer knows. */
  heldNewerSchema = 0;
  /** Dead-letter publishes the broker refused for good (topic deleted, not authorized, too large). */
  deadLetterRejections = 0;
  /** Times a partition was paused because a dependency was down. */
  pauses = 0;
  /**
   * Times a missing table, column or grant began to hold the consumer back (once per thing
   * missing, however many partitions and rounds wait for it).
   */
  deploymentFaults = 0;
  /** Times this process's consumer joined its group (its first join, then one per rebalance). */
  groupJoins = 0;
  /** Times the consumer crashed and had to be started again (a rebalance must never be one). */
  consumerCrashes = 0;
  /**
   * Fetch requests the consumer sent: one per broker it reads from, answered when data arrives
   * or its wait (`kafka.maxWaitTimeMs`) is over; what a shorter wait costs an idle consumer.
   */
  fetches = 0;
  /** Why the consumer is not reading now (set by the transport, cleared when it joins). */
  consumerFault?: ConsumerFault;
  /** When the consumer began rejoining its group after a rebalance; unset while it is a member. */
  rejoiningSince?: number;
  /** Partitions paused now for a transient failure, and since when. */
  readonly blocks: PartitionBlocks;
  /** By topic, then partition: updated in place for every settled message. */
  private readonly lags = new Map<string, Map<number, PartitionLag>>();
  private readonly latencyListeners: InboxLatencyListener[] = [];

  constructor(blockedBackoff: BackoffPolicy = { baseDelayMs: 500, maxDelayMs: 15_000 }) {
    this.blocks = new PartitionBlocks(blockedBackoff);
  }

  /** Counts a settled message; `seconds` is how long the transaction that settled it took. */
  count(outcome: InboxOutcome, drained: number, seconds?: number): void {
    this.outcomes[outcome] += 1;
    this.drained += drained;
    if (seconds !== undefined)
      for (const listener of this.latencyListeners) listener(seconds, outcome);
  }

  onLatency(listener: InboxLatencyListener): void {
    this.latencyListeners.push(listener);
  }

  /**
   * Records the lag of a partition from the high watermark of the batch being consumed, as
   * Kafka's own consumers report records-lag: no extra request to the broker.
   */
  recordLag(topic: string, partition: number, lag: number): void {
    let partitions = this.lags.get(topic);
    if (!partitions) this.lags.set(topic, (partitions = new Map()));
    const known = partitions.get(partition);
    if (known) known.lag = Math.max(0, lag);
    else partitions.set(partition, { topic, partition, lag: Math.max(0, lag) });
  }

  /** Forgets every partition's lag (after a rebalance the assignment may have changed). */
  clearLag(): void {
    this.lags.clear();
  }

  /** Lag of each partition this consumer read since the last rebalance. */
  partitionLags(): PartitionLag[] {
    const all: PartitionLag[] = [];
    for (const partitions of this.lags.values()) {
      for (const lag of partitions.values()) all.push({ ...lag });
    }
    return all;
  }
}
