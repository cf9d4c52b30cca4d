/** An aggregate whose next version has not arrived for longer than the gap alert time. */
export interface OpenGap {
  aggregateType: string;
  aggregateId: string;
  lastAppliedVersion: number | null;
  parkedVersions: number[];
  oldestParkedAt: string;
}

import { BlockedPartition } from '../metrics/partition-blocks';
import type { ConsumerFault } from '../metrics/consumer-fault';

/** What `GET /inbox/stats` answers. */
export interface InboxStats {
  consumer: string;
  /** Inbox rows by outcome (durable, until pruned). */
  inbox: { applied: number; ignored: number; stale: number; parked: number };
  /** Events waiting in the parking lot now. */
  parkedNow: number;
  openGaps: OpenGap[];
  /** Messages in the dead-letter topic (null when the broker could not be asked). */
  deadLetterTopicMessages: number | null;
  /**
   * Partitions of this process paused because a dependency is down (transient failures), and
   * seconds since the oldest of those blocks began (0 when none).
   */
  blocked: { seconds: number; partitions: BlockedPartition[] };
  /**
   * This process's consumer in its group: whether it has joined since start, and seconds since
   * it began rejoining after a rebalance (0 while it is a member).
   */
  group: { joined: boolean; rejoiningSeconds: number };
  /**
   * Why the consumer is not reading now (a refused login or certificate, a topic or the group
   * the ACLs deny): Kafka's code, its subject and the remedy; null while it reads.
   */
  consumerFault: ConsumerFault | null;
  /** Counters of this process since it started. */
  sinceStart: {
    applied: number;
    ignored: number;
    stale: number;
    parked: number;
    duplicates: number;
    drained: number;
    retries: number;
    deadLettered: number;
    /** Times a partition was paused for a transient failure. */
    pauses: number;
    /** Times a missing table, column or grant began to hold the consumer back. */
    deploymentFaults: number;
    /** Events of a type this consumer does not know, recorded and skipped. */
    unknownEventTypes: number;
    /** Events held (parked) for a schema version newer than this consumer knows. */
    heldNewerSchema: number;
    /** Times the consumer joined its group: its first join, then one per rebalance. */
    groupJoins: number;
    /** Times the consumer crashed and was started again. */
    consumerCrashes: number;
  };
}
