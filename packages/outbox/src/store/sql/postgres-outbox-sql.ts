import { DeadRowFilter, deadRowConditions } from '../dead-row-filter';
import { OutboxQuery, OutboxSql } from './outbox-sql';
import { insertValues, sharedOutboxSql } from './shared-outbox-sql';

const ROW_COLUMNS = `id, aggregate_type, aggregate_id, aggregate_version, event_type, event_key,
  payload, headers, retry_count`;

/**
 * The database's clock for every time: the start of the current statement. Not `now()`, which
 * is the start of the transaction: in a claim's transaction it would backdate each lease by
 * the time the statements before it took.
 */
const NOW = 'statement_timestamp()';

/** NOW plus the milliseconds in placeholder `param`. */
const nowPlus = (param: string) => `${NOW} + ${param}::double precision * interval '1 millisecond'`;

/** The values of one statement, each answered with its `$n`. */
function placeholders() {
  const params: unknown[] = [];
  return {
    params,
    add(value: unknown): string {
      params.push(value);
      return `$${params.length}`;
    },
  };
}

/** `AND …` for the filter's conditions, numbering its values after those already in `values`. */
function deadRowsWhere(filter: DeadRowFilter, values = placeholders()) {
  const condition = deadRowConditions(filter)
    .map((c) =>
      c.column === 'id'
        ? ` AND id = ANY(${values.add(c.values)}::bigint[])`
        : ` AND ${c.column} = ${values.add(c.value)}`,
    )
    .join('');
  return { condition, params: values.params };
}

const query = (sql: string, params: unknown[] = []): OutboxQuery => ({ sql, params });

/**
 * t_outbox's statements on PostgreSQL (node-postgres: `$n` placeholders, a list as an array
 * with `= ANY($n)`). Times are statement_timestamp() in TIMESTAMPTZ(3) columns.
 */
export const postgresOutboxSql: OutboxSql = {
  engine: 'postgres',
  ...sharedOutboxSql((position) => `$${position}`),

  // A failed statement aborts a PostgreSQL transaction (25P02), so a duplicate must not fail:
  // ON CONFLICT DO NOTHING, on either unique key, and RETURNING tells a new row from none.
  insert: (row) => ({
    sql: `INSERT INTO t_outbox
       (aggregate_type, aggregate_id, aggregate_version, event_type, event_key, event_id,
        payload, headers, status, next_retry_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'NEW', ${NOW}, ${NOW}, ${NOW})
     ON CONFLICT DO NOTHING RETURNING id`,
    params: insertValues(row),
    read: (result) => Array.isArray(result) && result.length > 0,
  }),

  /**
   * A range of idx_outbox_status_retry (status, next_retry_at, id), in index order: PostgreSQL
   * does not append the primary key to an index as InnoDB does, so `id` is in it for the
   * ORDER BY to need no sort (test/outbox-claim-plan.postgres.int-spec.ts).
   */
  claimDueNew: (limit) =>
    query(
      `SELECT ${ROW_COLUMNS} FROM t_outbox
       WHERE status = 'NEW' AND next_retry_at <= ${NOW}
       ORDER BY next_retry_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    ),

  /**
   * claimDueNew's range, locked and leased in one statement: one round trip instead of BEGIN,
   * the lock, the ordering check, the lease and COMMIT. The check reads the statement's
   * snapshot, taken before the lease: an earlier version that another claim holds (leased, or
   * locked and still NEW) is unsent there too, as it is to the check in a transaction.
   */
  claimAndLeaseDueNew: (limit, lease, statuses) =>
    query(
      `WITH due AS (
         SELECT id, next_retry_at FROM t_outbox
         WHERE status = 'NEW' AND next_retry_at <= ${NOW}
         ORDER BY next_retry_at, id LIMIT $1 FOR UPDATE SKIP LOCKED),
       leased AS (
         UPDATE t_outbox o SET status = 'SENDING', lease_owner = $2, lease_token = $3,
           lease_until = ${nowPlus('$4')}, next_retry_at = ${nowPlus('$4')}, updated_at = ${NOW}
         FROM due WHERE o.id = due.id
         RETURNING o.id, o.aggregate_type, o.aggregate_id, o.aggregate_version, o.event_type,
           o.event_key, o.payload, o.headers, o.retry_count, due.next_retry_at AS due_at)
       SELECT leased.*, CASE WHEN leased.aggregate_version > 1 THEN (
           SELECT json_agg(json_build_object(
             'aggregate_version', e.aggregate_version, 'status', e.status,
             'due_in_ms', CASE WHEN e.status = 'NEW'
               THEN floor(extract(epoch FROM e.next_retry_at - ${NOW}) * 1000)::bigint
               ELSE 0 END))
           FROM t_outbox e
           WHERE e.aggregate_type = leased.aggregate_type
             AND e.aggregate_id = leased.aggregate_id
             AND e.aggregate_version < leased.aggregate_version
             AND e.status = ANY($5::text[]) AND e.id NOT IN (SELECT id FROM due))
         END AS earlier
       FROM leased`,
      [limit, lease.owner, lease.token, lease.leaseMs, statuses],
    ),

  /** A SENDING row's next_retry_at is its lease expiry (the table never held it elsewhere). */
  claimExpired: (limit) =>
    query(
      `SELECT ${ROW_COLUMNS} FROM t_outbox
       WHERE status = 'SENDING' AND next_retry_at <= ${NOW}
       ORDER BY next_retry_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    ),

  earlierUnsent: (q) =>
    query(
      `SELECT aggregate_type, aggregate_id, aggregate_version, status,
         CASE WHEN status = 'NEW'
           THEN floor(extract(epoch FROM next_retry_at - ${NOW}) * 1000)::bigint
           ELSE 0 END AS due_in_ms
       FROM t_outbox
       WHERE aggregate_type = ANY($1::text[]) AND aggregate_id = ANY($2::text[])
         AND aggregate_version < $3 AND status = ANY($4::text[])
         AND id <> ALL($5::bigint[])`,
      [q.aggregateTypes, q.aggregateIds, q.belowVersion, q.statuses, q.excludingIds],
    ),

  lease: (ids, lease) =>
    query(
      `UPDATE t_outbox SET status = 'SENDING', lease_owner = $1, lease_token = $2,
         lease_until = ${nowPlus('$3')}, next_retry_at = ${nowPlus('$3')}, updated_at = ${NOW}
       WHERE id = ANY($4::bigint[])`,
      [lease.owner, lease.token, lease.leaseMs, ids],
    ),

  backToNew: (ids, delayMs, token) =>
    query(
      `UPDATE t_outbox SET status = 'NEW', lease_owner = NULL, lease_token = NULL,
         lease_until = NULL, updated_at = ${NOW}, next_retry_at = ${nowPlus('$1')}
       WHERE id = ANY($2::bigint[])${token === undefined ? '' : ' AND lease_token = $3'}`,
      [delayMs, ids, ...(token === undefined ? [] : [token])],
    ),

  releaseLeases: (tokens) =>
    query(
      `UPDATE t_outbox SET status = 'NEW', lease_owner = NULL, lease_token = NULL,
         lease_until = NULL, updated_at = ${NOW}, next_retry_at = ${NOW}
       WHERE status = 'SENDING' AND lease_token = ANY($1::text[])`,
      [tokens],
    ),

  extendLease: (ids, token, leaseMs) =>
    query(
      `UPDATE t_outbox SET lease_until = ${nowPlus('$1')}, next_retry_at = ${nowPlus('$1')}
       WHERE id = ANY($2::bigint[]) AND lease_token = $3 AND status = 'SENDING'`,
      [leaseMs, ids, token],
    ),

  markSent: (ids, token) =>
    query(
      `UPDATE t_outbox SET status = 'SENT', sent_at = ${NOW}, next_retry_at = ${NOW},
         updated_at = ${NOW}, lease_token = NULL, lease_until = NULL, last_error = NULL
       WHERE id = ANY($1::bigint[]) AND lease_token = $2`,
      [ids, token],
    ),

  markRetry: (ids, token, reason, delayMs) =>
    query(
      `UPDATE t_outbox SET status = 'NEW', retry_count = retry_count + 1, last_error = $1,
         next_retry_at = ${nowPlus('$2')}, updated_at = ${NOW}, lease_token = NULL,
         lease_until = NULL
       WHERE id = ANY($3::bigint[]) AND lease_token = $4`,
      [reason, delayMs, ids, token],
    ),

  markDead: (ids, token, reason, attempted) =>
    query(
      `UPDATE t_outbox SET status = 'DEAD', last_error = $1,
         retry_count = retry_count + ${attempted ? 1 : 0}, next_retry_at = ${NOW},
         updated_at = ${NOW}, lease_token = NULL, lease_until = NULL
       WHERE id = ANY($2::bigint[]) AND lease_token = $3`,
      [reason, ids, token],
    ),

  // PostgreSQL refuses FOR UPDATE beside DISTINCT: the rows are locked in a subquery.
  lockDeadAggregates: (filter) => {
    const { condition, params } = deadRowsWhere(filter);
    return query(
      `SELECT DISTINCT aggregate_type, aggregate_id FROM (
         SELECT aggregate_type, aggregate_id FROM t_outbox
         WHERE status = 'DEAD'${condition} FOR UPDATE) AS dead`,
      params,
    );
  },

  requeueDead: (filter) => {
    const { condition, params } = deadRowsWhere(filter);
    return query(
      `UPDATE t_outbox SET status = 'NEW', retry_count = 0, next_retry_at = ${NOW},
         updated_at = ${NOW}, lease_owner = NULL, lease_token = NULL, lease_until = NULL
       WHERE status = 'DEAD'${condition}`,
      params,
    );
  },

  dueNow: (aggregateType, aggregateId) =>
    query(
      `UPDATE t_outbox SET next_retry_at = ${NOW}
       WHERE aggregate_type = $1 AND aggregate_id = $2 AND status = 'NEW' AND retry_count = 0`,
      [aggregateType, aggregateId],
    ),

  /**
   * PostgreSQL has no DELETE … ORDER BY … LIMIT: the chunk is chosen in a subquery, on the
   * ('SENT', next_retry_at) range of idx_outbox_status_retry (a SENT row's next_retry_at is its
   * send time). SKIP LOCKED lets concurrent retention passes share the work instead of queueing.
   */
  deleteSent: (olderThanMs, chunkSize) =>
    query(
      `DELETE FROM t_outbox WHERE id IN (
         SELECT id FROM t_outbox
         WHERE status = 'SENT' AND next_retry_at < ${NOW} - $1::double precision * interval '1 millisecond'
         ORDER BY next_retry_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [olderThanMs, chunkSize],
    ),

  oldestUnsentAge: () =>
    query(
      `SELECT floor(extract(epoch FROM ${NOW} - MIN(created_at)) * 1000)::bigint AS age_ms
       FROM t_outbox WHERE status IN ('NEW', 'SENDING')`,
    ),

  aggregatesBlockedByDead: () =>
    query(
      `SELECT COUNT(*) AS n FROM (
         SELECT DISTINCT d.aggregate_type, d.aggregate_id
         FROM t_outbox d JOIN t_outbox w
           ON w.aggregate_type = d.aggregate_type AND w.aggregate_id = d.aggregate_id
          AND w.aggregate_version > d.aggregate_version AND w.status IN ('NEW', 'SENDING')
         WHERE d.status = 'DEAD') AS blocked`,
    ),

  listDead: (limit, afterId, match) => {
    const values = placeholders();
    const after = values.add(afterId);
    const { condition } = deadRowsWhere(match, values);
    return query(
      `SELECT id, event_key, event_type, aggregate_type, aggregate_id, aggregate_version,
         retry_count, last_error, LEFT(payload, 300) AS payload_preview, created_at, updated_at
       FROM t_outbox WHERE status = 'DEAD' AND id > ${after}${condition}
       ORDER BY id LIMIT ${values.add(limit)}`,
      values.params,
    );
  },
};
