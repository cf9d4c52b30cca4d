import type { SqlEngine } from '@outbox-inbox/database';
import type { InboxQuery } from '../../inbox-query';
import type { AggregateSelector } from '../aggregate-selector';

/** A version skipped on purpose, as t_inbox_skip records it. */
export interface SkipRow {
  consumer: string;
  aggregateType: string;
  aggregateId: string;
  version: number;
  reason: string;
  skippedBy: string;
  drained: number;
}

/**
 * Every statement the inbox's operator side sends (stats, open gaps, deliveries, gap skip,
 * prune, dead-letter replay records), written once per engine (mysql-inbox-operations-sql.ts,
 * postgres-inbox-operations-sql.ts): its callers hold the logic and run the statements; an
 * implementation only writes them, in its engine's placeholders and functions. The apply
 * step's statements are InboxApplySql's (apply/sql/).
 *
 * Reads answer rows with the columns named in each method's comment; writes answer what
 * `affectedRows` counts.
 */
export interface InboxOperationsSql {
  readonly engine: SqlEngine;

  /** `outcome`, `n`: the consumer's inbox rows by outcome. */
  outcomeCounts(consumer: string): InboxQuery;
  /** `n`: the consumer's parked events. */
  parkedCount(consumer: string): InboxQuery;
  /**
   * `aggregate_type`, `aggregate_id`, `last_version` (null without a gate row), `versions`
   * (the parked versions, ascending, comma-separated), `oldest`: aggregates with an event
   * parked before `parkedBefore`, oldest first, at most `limit`.
   */
  openGaps(consumer: string, parkedBefore: Date, limit: number): InboxQuery;

  /** `consumer`, `event_key`, … `last_duplicate_at` of the rows whose key has a prefix. */
  deliveries(consumer: string, keyLikes: string[]): InboxQuery;
  /** `aggregate_type`, `aggregate_id`, `aggregate_version`, `reason`, `skipped_by`, `skipped_at`. */
  skips(consumer: string, aggregates: AggregateSelector[]): InboxQuery;

  /** `last_version`, `parked_count` of the aggregate's gate row, locked until commit. */
  lockGate(consumer: string, aggregate: AggregateSelector): InboxQuery;
  /** `n`: parked events of the aggregate at `version`. */
  parkedAt(consumer: string, aggregate: AggregateSelector, version: number): InboxQuery;
  /** A gate row at `version`, nothing parked. */
  insertGate(consumer: string, aggregate: AggregateSelector, version: number): InboxQuery;
  /** Moves an existing gate row to `version`. */
  moveGate(consumer: string, aggregate: AggregateSelector, version: number): InboxQuery;
  insertSkip(skip: SkipRow): InboxQuery;

  /** `through`: the highest id the prune may delete (null when none). */
  pruneThrough(consumer: string, cutoff: Date): InboxQuery;
  /** Records the prune's watermark, never moving it back. */
  recordPruneWatermark(consumer: string, cutoff: Date, through: string, now: Date): InboxQuery;
  /** Deletes up to `chunkSize` of the oldest unparked rows processed before `cutoff`. */
  deletePruneChunk(consumer: string, cutoff: Date, chunkSize: number): InboxQuery;

  /** `dlq_partition`, `dlq_offset`, `replayed_at` of the dead letters replayed from a topic. */
  replayTimes(consumer: string, deadLetterTopic: string): InboxQuery;
  /** Records (or renews) the replay of one dead letter to `targetTopic`. */
  recordReplay(
    consumer: string,
    deadLetterTopic: string,
    deadLetter: { partition: number; offset: string },
    targetTopic: string,
  ): InboxQuery;
}
