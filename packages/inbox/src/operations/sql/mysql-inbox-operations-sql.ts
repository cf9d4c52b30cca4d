import type { InboxQuery } from '../../inbox-query';
import { InboxOperationsSql } from './inbox-operations-sql';

const query = (sql: string, params: unknown[]): InboxQuery => ({ sql, params });

/** The inbox's operator statements on MySQL/MariaDB; times are the caller's clock. */
export const mysqlInboxOperationsSql: InboxOperationsSql = {
  engine: 'mysql',

  outcomeCounts: (consumer) =>
    query(`SELECT outcome, COUNT(*) AS n FROM t_inbox WHERE consumer = ? GROUP BY outcome`, [
      consumer,
    ]),

  parkedCount: (consumer) =>
    query(`SELECT COUNT(*) AS n FROM t_inbox_parked WHERE consumer = ?`, [consumer]),

  openGaps: (consumer, parkedBefore, limit) =>
    query(
      `SELECT p.aggregate_type, p.aggregate_id, v.last_version,
              GROUP_CONCAT(p.aggregate_version ORDER BY p.aggregate_version) AS versions,
              MIN(p.parked_at) AS oldest
       FROM t_inbox_parked p
       LEFT JOIN t_inbox_version v ON v.consumer = p.consumer
         AND v.aggregate_type = p.aggregate_type AND v.aggregate_id = p.aggregate_id
       WHERE p.consumer = ?
       GROUP BY p.aggregate_type, p.aggregate_id, v.last_version
       HAVING MIN(p.parked_at) < ?
       ORDER BY oldest LIMIT ${Number(limit)}`,
      [consumer, parkedBefore],
    ),

  deliveries: (consumer, keyLikes) =>
    query(
      `SELECT consumer, event_key, event_type, event_id, outcome, processed_at, duplicate_count,
              last_duplicate_at
       FROM t_inbox
       WHERE consumer = ? AND (${keyLikes.map(() => 'event_key LIKE ?').join(' OR ')})
       ORDER BY processed_at, id`,
      [consumer, ...keyLikes],
    ),

  skips: (consumer, aggregates) =>
    query(
      `SELECT aggregate_type, aggregate_id, aggregate_version, reason, skipped_by, skipped_at
       FROM t_inbox_skip
       WHERE consumer = ? AND (${aggregates.map(() => '(aggregate_type = ? AND aggregate_id = ?)').join(' OR ')})`,
      [consumer, ...aggregates.flatMap((a) => [a.aggregateType, a.aggregateId])],
    ),

  lockGate: (consumer, { aggregateType, aggregateId }) =>
    query(
      `SELECT last_version, parked_count FROM t_inbox_version
       WHERE consumer = ? AND aggregate_type = ? AND aggregate_id = ? FOR UPDATE`,
      [consumer, aggregateType, aggregateId],
    ),

  parkedAt: (consumer, { aggregateType, aggregateId }, version) =>
    query(
      `SELECT COUNT(*) AS n FROM t_inbox_parked
       WHERE consumer = ? AND aggregate_type = ? AND aggregate_id = ? AND aggregate_version = ?`,
      [consumer, aggregateType, aggregateId, version],
    ),

  insertGate: (consumer, { aggregateType, aggregateId }, version) =>
    query(
      `INSERT INTO t_inbox_version
         (consumer, aggregate_type, aggregate_id, last_version, parked_count, updated_at)
       VALUES (?, ?, ?, ?, 0, ?)`,
      [consumer, aggregateType, aggregateId, version, new Date()],
    ),

  moveGate: (consumer, { aggregateType, aggregateId }, version) =>
    query(
      `UPDATE t_inbox_version SET last_version = ?, updated_at = ?
       WHERE consumer = ? AND aggregate_type = ? AND aggregate_id = ?`,
      [version, new Date(), consumer, aggregateType, aggregateId],
    ),

  insertSkip: (skip) =>
    query(
      `INSERT INTO t_inbox_skip (consumer, aggregate_type, aggregate_id, aggregate_version,
         reason, skipped_by, skipped_at, drained)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        skip.consumer,
        skip.aggregateType,
        skip.aggregateId,
        skip.version,
        skip.reason,
        skip.skippedBy,
        new Date(),
        skip.drained,
      ],
    ),

  pruneThrough: (consumer, cutoff) =>
    query(
      `SELECT MAX(id) AS through FROM t_inbox
       WHERE consumer = ? AND processed_at < ? AND outcome <> 'parked'`,
      [consumer, cutoff],
    ),

  recordPruneWatermark: (consumer, cutoff, through, now) =>
    query(
      `INSERT INTO t_inbox_prune (consumer, pruned_before, pruned_through_id, pruned_at)
       VALUES (?, ?, ?, ?)
       ON DUPLICATE KEY UPDATE pruned_before = GREATEST(pruned_before, VALUES(pruned_before)),
         pruned_through_id = GREATEST(pruned_through_id, VALUES(pruned_through_id)),
         pruned_at = VALUES(pruned_at)`,
      [consumer, cutoff, through, now],
    ),

  deletePruneChunk: (consumer, cutoff, chunkSize) =>
    query(
      `DELETE FROM t_inbox WHERE consumer = ? AND processed_at < ? AND outcome <> 'parked'
       ORDER BY processed_at LIMIT ${Number(chunkSize)}`,
      [consumer, cutoff],
    ),

  replayTimes: (consumer, deadLetterTopic) =>
    query(
      `SELECT dlq_partition, dlq_offset, replayed_at FROM t_inbox_dlq_replay
       WHERE consumer = ? AND dlq_topic = ?`,
      [consumer, deadLetterTopic],
    ),

  recordReplay: (consumer, deadLetterTopic, deadLetter, targetTopic) =>
    query(
      `INSERT INTO t_inbox_dlq_replay (consumer, dlq_topic, dlq_partition, dlq_offset, target_topic, replayed_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON DUPLICATE KEY UPDATE target_topic = VALUES(target_topic), replayed_at = VALUES(replayed_at)`,
      [consumer, deadLetterTopic, deadLetter.partition, deadLetter.offset, targetTopic, new Date()],
    ),
};
