import type { ConsumerFault } from './metrics/consumer-fault';
import type { SchemaProbe } from '@outbox-inbox/database';
import { InboxOutcome } from './apply/inbox-processor';
import { BlockedPartition } from './metrics/partition-blocks';
import { InboxStats, OpenGap } from './operations/inbox-stats';

/** Receives the time each settled message spent in its inbox transaction. */
export type InboxLatencyListener = (seconds: number, outcome: InboxOutcome) => void;

/** Consumer lag of one partition, as of the last batch fetched from it. */
export interface PartitionLag {
  topic: string;
  partition: number;
  /** Messages in the partition after the last settled one (high watermark − settled − 1). */
  lag: number;
}

/**
 * The inbox consumer's counters since this process started, read-only: what an exporter reads
 * when scraped (InboxMetrics keeps them). Latencies are pushed to `onLatency` listeners.
 */
export interface InboxCounters {
  readonly outcomes: Readonly<Record<InboxOutcome, number>>;
  /** Parked events applied once their predecessor arrived. */
  readonly drained: number;
  /** Transaction attempts retried after a transient failure. */
  readonly retries: number;
  readonly deadLettered: number;
  /** Batches that failed and were settled message by message. */
  readonly batchFallbacks: number;
  /** Events of a type this consumer's registry does not know: recorded and skipped. */
  readonly unknownEventTypes: number;
  /** Events held (parked) because their schema version is newer than this consumer knows. */
  readonly heldNewerSchema: number;
  /** Dead-letter publishes the broker refused for good (topic deleted, not authorized, too large). */
  readonly deadLetterRejections: number;
  /** Times a partition was paused because a dependency was down. */
  readonly pauses: number;
  /** Times a missing table, column or grant began to hold the consumer back (one per thing missing). */
  readonly deploymentFaults: number;
  /** Times the consumer joined its group (its first join, then one per rebalance). */
  readonly groupJoins: number;
  /** Times the consumer crashed and had to be started again. */
  readonly consumerCrashes: number;
  /** Fetch requests the consumer sent (one per broker it reads from, per fetch). */
  readonly fetches: number;
  /** Partitions paused now for a transient failure, and seconds since the oldest was. */
  readonly blocks: { list(): BlockedPartition[]; blockedSeconds(): number };
  /** Lag of each partition this consumer read since the last rebalance. */
  partitionLags(): PartitionLag[];
  /** Calls `listener` with the transaction time of every message settled from now on. */
  onLatency(listener: InboxLatencyListener): void;
}

/** The inbox as an operator or a health check reads it, read-only (InboxOperations). */
export interface InboxStatsSource {
  /** Durable counts, open gaps, dead letters, blocked partitions, group membership. */
  stats(): Promise<InboxStats>;
  openGaps(): Promise<OpenGap[]>;
  /**
   * Whether this process's consumer has joined its group since it started, its name, and why
   * it is not reading now if it is not (known without the database or the broker).
   */
  groupMembership(): { consumer: string; joined: boolean; fault?: ConsumerFault };
}

/**
 * The read-only ports InboxModule provides, by Nest token: the token is the port's name, so a
 * reader that knows this package's types only (metrics, health) injects one with
 * `@Inject('InboxCounters' satisfies keyof InboxReadPorts)`.
 */
export interface InboxReadPorts {
  InboxCounters: InboxCounters;
  InboxStatsSource: InboxStatsSource;
  /** probeInboxSchema on the inbox's DataSource: its tables, columns and grants in place. */
  InboxSchemaProbe: SchemaProbe;
}
