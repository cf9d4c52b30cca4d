import type { InboxQuery } from '../../inbox-query';
import { InboxOperationsSql } from './inbox-operations-sql';

const query = (sql: string, params: unknown[]): InboxQuery => ({ sql, params });

/**
 * The inbox's operator statements on PostgreSQL. Lists travel as array parameters; times an
 * action writes are the server's statement_timestamp(); the prune's cutoff and watermark keep
 * the caller's clock, as on MySQL, since the caller may prune as of a time it names.
 */
export const postgresInboxOperationsSql: InboxOperationsSql = {
  engine: 'postgres',

  outcomeCounts: (consumer) =>
    query(`SELECT outcome, COUNT(*) AS n FROM t_inbox WHERE consumer = $1 GROUP BY outcome`, [
      consumer,
    ]),

  parkedCount: (consumer) =>
    query(`SELECT COUNT(*) AS n FROM t_inbox_parked WHERE consumer = $1`, [consumer]),

  // string_agg for MySQL's GROUP_CONCAT: the same comma-separated answer.
  openGaps: (consumer, parkedBefore, limit) =>
    query(
      `SELECT p.aggregate_type, p.aggregate_id, v.last_version,
              string_agg(p.aggregate_version::text, ',' ORDER BY p.aggregate_version) AS versions,
              MIN(p.parked_at) AS oldest
       FROM t_inbox_parked p
       LEFT JOIN t_inbox_version v ON v.consumer = p.consumer
         AND v.aggregate_type = p.aggregate_type AND v.aggregate_id = p.aggregate_id
       WHERE p.consumer = $1
       GROUP BY p.aggregate_type, p.aggregate_id, v.last_version
       HAVING MIN(p.parked_at) < $2
       ORDER BY oldest LIMIT $3`,
      [consumer, parkedBefore, limit],
    ),

  // LIKE's escape character is the backslash on both engines.
  deliveries: (consumer, keyLikes) =>
    query(
      `SELECT consumer, event_key, event_type, event_id, outcome, processed_at, duplicate_count,
              last_duplicate_at
       FROM t_inbox
       WHERE consumer = $1 AND event_key LIKE ANY ($2::varchar[])
       ORDER BY processed_at, id`,
      [consumer, keyLikes],
    ),

  skips: (consumer, aggregates) =>
    query(
      `SELECT aggregate_type, aggregate_id, aggregate_version, reason, skipped_by, skipped_at
       FROM t_inbox_skip
       WHERE consumer = $1 AND (aggregate_type, aggregate_id) IN
         (SELECT * FROM unnest($2::varchar[], $3::varchar[]))`,
      [consumer, aggregates.map((a) => a.aggregateType), aggregates.map((a) => a.aggregateId)],
    ),

  lockGate: (consumer, { aggregateType, aggregateId }) =>
    query(
      `SELECT last_version, parked_count FROM t_inbox_version
       WHERE consumer = $1 AND aggregate_type = $2 AND aggregate_id = $3 FOR UPDATE`,
      [consumer, aggregateType, aggregateId],
    ),

  parkedAt: (consumer, { aggregateType, aggregateId }, version) =>
    query(
      `SELECT COUNT(*) AS n FROM t_inbox_parked
       WHERE consumer = $1 AND aggregate_type = $2 AND aggregate_id = $3
         AND aggregate_version = $4`,
      [consumer, aggregateType, aggregateId, version],
    ),

  insertGate: (consumer, { aggregateType, aggregateId }, version) =>
    query(
      `INSERT INTO t_inbox_version
         (consumer, aggregate_type, aggregate_id, last_version, parked_count, updated_at)
       VALUES ($1, $2, $3, $4, 0, statement_timestamp())`,
      [consumer, aggregateType, aggregateId, version],
    ),

  moveGate: (consumer, { aggregateType, aggregateId }, version) =>
    query(
      `UPDATE t_inbox_version SET last_version = $1, updated_at = statement_timestamp()
       WHERE consumer = $2 AND aggregate_type = $3 AND aggregate_id = $4`,
      [version, consumer, aggregateType, aggregateId],
    ),

  insertSkip: (skip) =>
    query(
      `INSERT INTO t_inbox_skip (consumer, aggregate_type, aggregate_id, aggregate_version,
         reason, skipped_by, skipped_at, drained)
       VALUES ($1, $2, $3, $4, $5, $6, statement_timestamp(), $7)`,
      [
        skip.consumer,
        skip.aggregateType,
        skip.aggregateId,
        skip.version,
        skip.reason,
        skip.skippedBy,
        skip.drained,
      ],
    ),

  pruneThrough: (consumer, cutoff) =>
    query(
      `SELECT MAX(id) AS through FROM t_inbox
       WHERE consumer = $1 AND processed_at < $2 AND outcome <> 'parked'`,
      [consumer, cutoff],
    ),

  recordPruneWatermark: (consumer, cutoff, through, now) =>
    query(
      `INSERT INTO t_inbox_prune AS w (consumer, pruned_before, pruned_through_id, pruned_at)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (consumer) DO UPDATE SET
         pruned_before = GREATEST(w.pruned_before, EXCLUDED.pruned_before),
         pruned_through_id = GREATEST(w.pruned_through_id, EXCLUDED.pruned_through_id),
         pruned_at = EXCLUDED.pruned_at`,
      [consumer, cutoff, through, now],
    ),

  // PostgreSQL has no DELETE … LIMIT: the chunk's ids are chosen by a subquery, oldest first
  // on (consumer, processed_at, id).
  deletePruneChunk: (consumer, cutoff, chunkSize) =>
    query(
      `DELETE FROM t_inbox WHERE id IN (
         SELECT id FROM t_inbox
         WHERE consumer = $1 AND processed_at < $2 AND outcome <> 'parked'
         ORDER BY processed_at LIMIT $3)`,
      [consumer, cutoff, chunkSize],
    ),

  replayTimes: (consumer, deadLetterTopic) =>
    query(
      `SELECT dlq_partition, dlq_offset, replayed_at FROM t_inbox_dlq_replay
       WHERE consumer = $1 AND dlq_topic = $2`,
      [consumer, deadLetterTopic],
    ),

  recordReplay: (consumer, deadLetterTopic, deadLetter, targetTopic) =>
    query(
      `INSERT INTO t_inbox_dlq_replay
         (consumer, dlq_topic, dlq_partition, dlq_offset, target_topic, replayed_at)
       VALUES ($1, $2, $3, $4, $5, statement_timestamp())
       ON CONFLICT ON CONSTRAINT pk_inbox_dlq_replay DO UPDATE SET
         target_topic = EXCLUDED.target_topic, replayed_at = EXCLUDED.replayed_at`,
      [consumer, deadLetterTopic, deadLetter.partition, deadLetter.offset, targetTopic],
    ),
};
