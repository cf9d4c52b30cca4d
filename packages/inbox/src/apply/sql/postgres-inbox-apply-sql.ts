import type { InboxQuery } from '../../inbox-query';
import { InboxApplySql } from './inbox-apply-sql';
import { parkedRowValues } from './parked-row-values';
import { sharedApplySql } from './shared-apply-sql';
import {
  postgresArrival,
  postgresDropPlaceholderGate,
  postgresFastAdmission,
} from './postgres-admission-sql';

const query = (sql: string, params: unknown[]): InboxQuery => ({ sql, params });

/** The gate rows of the batch, as array parameters $2 … $5. */
const GATES = `unnest($2::varchar[], $3::varchar[], $4::integer[], $5::integer[])
      AS r(aggregate_type, aggregate_id, last_version, parked_count)`;

/**
 * The apply step's statements on PostgreSQL. Taking an event in never fails on an inbox row
 * this consumer has already: a failed statement aborts a PostgreSQL transaction (25P02), and
 * the handler's effect still has to be written in it. `ON CONFLICT … DO NOTHING` answers a
 * duplicate with no row instead. Lists travel as array parameters (`= ANY($n)`, `unnest`), so
 * a statement's text is the same whatever the batch's size. Times are the server's
 * statement_timestamp() (not now(): the transaction's start).
 */
export const postgresInboxApplySql: InboxApplySql = {
  engine: 'postgres',
  ...sharedApplySql((position) => `$${position}`),

  arrival: postgresArrival,
  fastAdmission: (consumer, envelope, outcome) => [
    postgresFastAdmission(consumer, envelope, outcome),
  ],
  isArrivalConflict: () => false,
  dropPlaceholderGate: postgresDropPlaceholderGate,

  // One statement for them all.
  recordDuplicates: (consumer, eventKeys) => {
    if (eventKeys.length === 0) return [];
    const counts = `SELECT key, COUNT(*)::integer AS n
      FROM unnest($2::varchar[]) AS key GROUP BY key`;
    return [
      query(
        `UPDATE t_inbox i
         SET duplicate_count = i.duplicate_count + d.n, last_duplicate_at = statement_timestamp()
         FROM (${counts}) d
         WHERE i.consumer = $1 AND i.event_key = d.key`,
        [consumer, eventKeys],
      ),
    ];
  },

  // A row another instance inserted meanwhile fails it (23505), which aborts the transaction;
  // the caller retries it whole and then sees the row.
  insertVersion: (consumer, aggregateType, aggregateId, row) =>
    query(
      `INSERT INTO t_inbox_version
         (consumer, aggregate_type, aggregate_id, last_version, parked_count, updated_at)
       VALUES ($1, $2, $3, $4, $5, statement_timestamp())`,
      [consumer, aggregateType, aggregateId, row.lastVersion, row.parkedCount],
    ),

  updateVersion: (consumer, aggregateType, aggregateId, row) =>
    query(
      `UPDATE t_inbox_version
       SET last_version = $1, parked_count = $2, updated_at = statement_timestamp()
       WHERE consumer = $3 AND aggregate_type = $4 AND aggregate_id = $5`,
      [row.lastVersion, row.parkedCount, consumer, aggregateType, aggregateId],
    ),

  park: (consumer, envelope, alreadyHandled, position) =>
    query(
      `INSERT INTO t_inbox_parked (consumer, aggregate_type, aggregate_id, aggregate_version,
         event_key, event_type, envelope, already_handled, source_topic, source_partition,
         source_offset, parked_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, statement_timestamp())`,
      parkedRowValues(consumer, envelope, alreadyHandled, position),
    ),

  // Events parked in the same millisecond in the order they were parked (`id`).
  readyAggregates: (consumer, limit) =>
    query(
      `SELECT p.aggregate_type, p.aggregate_id FROM t_inbox_parked p
       JOIN t_inbox_version v ON v.consumer = p.consumer
         AND v.aggregate_type = p.aggregate_type AND v.aggregate_id = p.aggregate_id
       WHERE p.consumer = $1 AND p.aggregate_version = v.last_version + 1
       ORDER BY p.parked_at, p.id LIMIT $2`,
      [consumer, limit],
    ),

  existingKeys: (consumer, keys) =>
    query(`SELECT event_key FROM t_inbox WHERE consumer = $1 AND event_key = ANY($2::varchar[])`, [
      consumer,
      keys,
    ]),

  // No ON CONFLICT on purpose: a row inserted meanwhile by another instance (rebalance) fails
  // the statement, and with it the transaction; the batch is then settled message by message,
  // each in a transaction of its own.
  recordArrivals: (consumer, arrivals) =>
    query(
      `INSERT INTO t_inbox (consumer, event_key, event_type, event_id, outcome, processed_at)
       SELECT $1, a.event_key, a.event_type, a.event_id, a.outcome, statement_timestamp()
       FROM unnest($2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[])
         AS a(event_key, event_type, event_id, outcome)`,
      [
        consumer,
        arrivals.map((a) => a.envelope.eventKey),
        arrivals.map((a) => a.envelope.eventType),
        arrivals.map((a) => a.envelope.eventId),
        arrivals.map((a) => a.outcome),
      ],
    ),

  // In key order: two batches locking overlapping aggregates take their locks in the same
  // order and never deadlock on them.
  lockVersions: (consumer, aggregates) =>
    query(
      `SELECT aggregate_type, aggregate_id, last_version, parked_count FROM t_inbox_version
       WHERE consumer = $1 AND (aggregate_type, aggregate_id) IN
         (SELECT * FROM unnest($2::varchar[], $3::varchar[]))
       ORDER BY aggregate_type, aggregate_id
       FOR UPDATE`,
      [consumer, aggregates.map((a) => a.aggregateType), aggregates.map((a) => a.aggregateId)],
    ),

  saveVersions: (consumer, fresh, known) => {
    const params = (list: typeof fresh) => [
      consumer,
      list.map((r) => r.aggregateType),
      list.map((r) => r.aggregateId),
      list.map((r) => r.lastVersion),
      list.map((r) => r.parkedCount),
    ];
    const statements: InboxQuery[] = [];
    if (fresh.length > 0) {
      statements.push(
        query(
          `INSERT INTO t_inbox_version
             (consumer, aggregate_type, aggregate_id, last_version, parked_count, updated_at)
           SELECT $1, r.aggregate_type, r.aggregate_id, r.last_version, r.parked_count,
             statement_timestamp()
           FROM ${GATES}`,
          params(fresh),
        ),
      );
    }
    if (known.length > 0) {
      statements.push(
        query(
          `UPDATE t_inbox_version v SET last_version = r.last_version,
             parked_count = r.parked_count, updated_at = statement_timestamp()
           FROM ${GATES}
           WHERE v.consumer = $1 AND v.aggregate_type = r.aggregate_type
             AND v.aggregate_id = r.aggregate_id`,
          params(known),
        ),
      );
    }
    return statements;
  },
};
