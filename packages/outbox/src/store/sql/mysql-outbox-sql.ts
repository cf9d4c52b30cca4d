import { DeadRowFilter, deadRowConditions } from '../dead-row-filter';
import { OutboxQuery, OutboxSql } from './outbox-sql';
import { insertValues, sharedOutboxSql } from './shared-outbox-sql';

const ROW_COLUMNS = `id, aggregate_type, aggregate_id, aggregate_version, event_type, event_key,
  payload, headers, retry_count`;

/** Microseconds for `INTERVAL ? MICROSECOND` (MariaDB and MySQL both take them). */
const us = (ms: number) => ms * 1000;

/** `UTC_TIMESTAMP(3)` plus the placeholder's microseconds. */
const NOW_PLUS = 'DATE_ADD(UTC_TIMESTAMP(3), INTERVAL ? MICROSECOND)';

const query = (sql: string, params: unknown[] = []): OutboxQuery => ({ sql, params });

/** `AND …` for the filter's conditions, and their values (mysql2 expands a list in `IN (?)`). */
function deadRowsWhere(filter: DeadRowFilter): { condition: string; params: unknown[] } {
  const conditions = deadRowConditions(filter);
  const clauses = conditions.map((c) => (c.column === 'id' ? 'id IN (?)' : `${c.column} = ?`));
  return {
    condition: clauses.map((clause) => ` AND ${clause}`).join(''),
    params: conditions.map((c) => (c.column === 'id' ? c.values : c.value)),
  };
}

/**
 * t_outbox's statements on MySQL and MariaDB (mysql2: `?` placeholders, a list expanded in
 * `IN (?)`). Times are UTC_TIMESTAMP(3), the DATETIME(3) columns' UTC clock.
 */
export const mysqlOutboxSql: OutboxSql = {
  engine: 'mysql',
  ...sharedOutboxSql(() => '?'),

  // ON DUPLICATE KEY UPDATE instead of catching ER_DUP_ENTRY: a failed statement inside the
  // caller's transaction is avoidable noise, and INSERT IGNORE would also hide truncations.
  insert: (row) => ({
    sql: `INSERT INTO t_outbox
       (aggregate_type, aggregate_id, aggregate_version, event_type, event_key, event_id,
        payload, headers, status, next_retry_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'NEW', UTC_TIMESTAMP(3), UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))
     ON DUPLICATE KEY UPDATE id = id`,
    params: insertValues(row),
    // mysql2 reports a duplicate as 1 "found" row, so affected rows cannot tell the cases
    // apart; the insert id is the new row's, and 0 when the row existed already.
    read: (result) => Number((result as { insertId: number | string }).insertId) > 0,
  }),

  /**
   * Reads only the ('NEW', next_retry_at <= now) range of idx_status_retry, in index order (no
   * filesort; InnoDB appends the primary key to the index, so `id` orders within it). MariaDB
   * 10.11 EXPLAIN with 1,000,000 SENT rows and 3,000 NEW rows present (see
   * test/outbox-claim-plan.int-spec.ts):
   *   select_type=SIMPLE table=t_outbox type=range key=idx_status_retry rows≈3000
   *   Extra="Using index condition"   (no "Using filesort", SENT rows never examined)
   */
  claimDueNew: (limit) =>
    query(
      `SELECT ${ROW_COLUMNS} FROM t_outbox
       WHERE status = 'NEW' AND next_retry_at <= UTC_TIMESTAMP(3)
       ORDER BY next_retry_at, id LIMIT ? FOR UPDATE SKIP LOCKED`,
      [limit],
    ),

  /**
   * A range of idx_status_retry, where a SENDING row's next_retry_at is its lease expiry.
   * `lease_until` is checked too, for rows leased before that was so
   * (SingleStatusIndex1765000000000).
   */
  claimExpired: (limit) =>
    query(
      `SELECT ${ROW_COLUMNS} FROM t_outbox
       WHERE status = 'SENDING' AND next_retry_at <= UTC_TIMESTAMP(3)
         AND lease_until <= UTC_TIMESTAMP(3)
       ORDER BY next_retry_at, id LIMIT ? FOR UPDATE SKIP LOCKED`,
      [limit],
    ),

  earlierUnsent: (q) =>
    query(
      `SELECT aggregate_type, aggregate_id, aggregate_version, status,
         CASE WHEN status = 'NEW'
           THEN TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(3), next_retry_at) DIV 1000
           ELSE 0 END AS due_in_ms
       FROM t_outbox
       WHERE aggregate_type IN (?) AND aggregate_id IN (?) AND aggregate_version < ?
         AND status IN (?) AND id NOT IN (?)`,
      [q.aggregateTypes, q.aggregateIds, q.belowVersion, q.statuses, q.excludingIds],
    ),

  lease: (ids, lease) =>
    query(
      `UPDATE t_outbox SET status = 'SENDING', lease_owner = ?, lease_token = ?,
         lease_until = ${NOW_PLUS}, next_retry_at = ${NOW_PLUS}, updated_at = UTC_TIMESTAMP(3)
       WHERE id IN (?)`,
      [lease.owner, lease.token, us(lease.leaseMs), us(lease.leaseMs), ids],
    ),

  backToNew: (ids, delayMs, token) =>
    query(
      `UPDATE t_outbox SET status = 'NEW', lease_owner = NULL, lease_token = NULL,
         lease_until = NULL, updated_at = UTC_TIMESTAMP(3), next_retry_at = ${NOW_PLUS}
       WHERE id IN (?)${token === undefined ? '' : ' AND lease_token = ?'}`,
      [us(delayMs), ids, ...(token === undefined ? [] : [token])],
    ),

  releaseLeases: (tokens) =>
    query(
      `UPDATE t_outbox SET status = 'NEW', lease_owner = NULL, lease_token = NULL,
         lease_until = NULL, updated_at = UTC_TIMESTAMP(3), next_retry_at = UTC_TIMESTAMP(3)
       WHERE status = 'SENDING' AND lease_token IN (?)`,
      [tokens],
    ),

  extendLease: (ids, token, leaseMs) =>
    query(
      `UPDATE t_outbox SET lease_until = ${NOW_PLUS}, next_retry_at = ${NOW_PLUS}
       WHERE id IN (?) AND lease_token = ? AND status = 'SENDING'`,
      [us(leaseMs), us(leaseMs), ids, token],
    ),

  markSent: (ids, token) =>
    query(
      `UPDATE t_outbox SET status = 'SENT', sent_at = UTC_TIMESTAMP(3),
         next_retry_at = UTC_TIMESTAMP(3), updated_at = UTC_TIMESTAMP(3), lease_token = NULL,
         lease_until = NULL, last_error = NULL
       WHERE id IN (?) AND lease_token = ?`,
      [ids, token],
    ),

  markRetry: (ids, token, reason, delayMs) =>
    query(
      `UPDATE t_outbox SET status = 'NEW', retry_count = retry_count + 1, last_error = ?,
         next_retry_at = ${NOW_PLUS}, updated_at = UTC_TIMESTAMP(3), lease_token = NULL,
         lease_until = NULL
       WHERE id IN (?) AND lease_token = ?`,
      [reason, us(delayMs), ids, token],
    ),

  markDead: (ids, token, reason, attempted) =>
    query(
      `UPDATE t_outbox SET status = 'DEAD', last_error = ?,
         retry_count = retry_count + ${attempted ? 1 : 0}, next_retry_at = UTC_TIMESTAMP(3),
         updated_at = UTC_TIMESTAMP(3), lease_token = NULL, lease_until = NULL
       WHERE id IN (?) AND lease_token = ?`,
      [reason, ids, token],
    ),

  lockDeadAggregates: (filter) => {
    const { condition, params } = deadRowsWhere(filter);
    return query(
      `SELECT DISTINCT aggregate_type, aggregate_id FROM t_outbox
       WHERE status = 'DEAD'${condition} FOR UPDATE`,
      params,
    );
  },

  requeueDead: (filter) => {
    const { condition, params } = deadRowsWhere(filter);
    return query(
      `UPDATE t_outbox SET status = 'NEW', retry_count = 0, next_retry_at = UTC_TIMESTAMP(3),
         updated_at = UTC_TIMESTAMP(3), lease_owner = NULL, lease_token = NULL, lease_until = NULL
       WHERE status = 'DEAD'${condition}`,
      params,
    );
  },

  dueNow: (aggregateType, aggregateId) =>
    query(
      `UPDATE t_outbox SET next_retry_at = UTC_TIMESTAMP(3)
       WHERE aggregate_type = ? AND aggregate_id = ? AND status = 'NEW' AND retry_count = 0`,
      [aggregateType, aggregateId],
    ),

  /**
   * A range of idx_status_retry (a SENT row's next_retry_at is its send time, or an earlier due
   * time for rows sent before SingleStatusIndex1765000000000, hence the `sent_at` check).
   */
  deleteSent: (olderThanMs, chunkSize) =>
    query(
      `DELETE FROM t_outbox
       WHERE status = 'SENT'
         AND next_retry_at < DATE_SUB(UTC_TIMESTAMP(3), INTERVAL ? MICROSECOND)
         AND sent_at < DATE_SUB(UTC_TIMESTAMP(3), INTERVAL ? MICROSECOND)
       ORDER BY next_retry_at LIMIT ?`,
      [us(olderThanMs), us(olderThanMs), chunkSize],
    ),

  oldestUnsentAge: () =>
    query(
      `SELECT TIMESTAMPDIFF(MICROSECOND, MIN(created_at), UTC_TIMESTAMP(3)) DIV 1000 AS age_ms
       FROM t_outbox WHERE status IN ('NEW', 'SENDING')`,
    ),

  aggregatesBlockedByDead: () =>
    query(
      `SELECT COUNT(DISTINCT d.aggregate_type, d.aggregate_id) AS n
       FROM t_outbox d JOIN t_outbox w
         ON w.aggregate_type = d.aggregate_type AND w.aggregate_id = d.aggregate_id
        AND w.aggregate_version > d.aggregate_version AND w.status IN ('NEW', 'SENDING')
       WHERE d.status = 'DEAD'`,
    ),

  listDead: (limit, afterId, match) => {
    const { condition, params } = deadRowsWhere(match);
    return query(
      `SELECT id, event_key, event_type, aggregate_type, aggregate_id, aggregate_version,
         retry_count, last_error, LEFT(payload, 300) AS payload_preview, created_at, updated_at
       FROM t_outbox WHERE status = 'DEAD' AND id > ?${condition} ORDER BY id LIMIT ?`,
      [afterId, ...params, limit],
    );
  },
};
