import { affectedRows, isDuplicateKeyError } from '@outbox-inbox/database';
import type { InboxQuery } from '../../inbox-query';
import { InboxApplySql } from './inbox-apply-sql';
import { parkedRowValues } from './parked-row-values';
import { sharedApplySql } from './shared-apply-sql';

const query = (sql: string, params: unknown[]): InboxQuery => ({ sql, params });

/** `?, ?, …`: one placeholder a value. */
const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/** `(?, ?), …`: one tuple of `width` placeholders a row. */
const tuples = (rows: number, width: number): string =>
  Array.from({ length: rows }, () => `(${marks(width)})`).join(', ');

const INSERT_GATES = `INSERT INTO t_inbox_version
      (consumer, aggregate_type, aggregate_id, last_version, parked_count, updated_at) VALUES `;

const ARRIVAL_SQL = `INSERT INTO t_inbox
  (consumer, event_key, event_type, event_id, outcome, processed_at) VALUES (?, ?, ?, ?, ?, ?)`;

/**
 * READ COMMITTED reads the NOT EXISTS without locks: two instances racing on one aggregate
 * (during a rebalance) both insert, one fails on the primary key and its transaction is retried.
 */
const FIRST_VERSION_SQL = `INSERT INTO t_inbox_version
    (consumer, aggregate_type, aggregate_id, last_version, parked_count, updated_at)
  SELECT ?, ?, ?, 1, 0, ? FROM DUAL WHERE NOT EXISTS (SELECT 1 FROM t_inbox_version
    WHERE consumer = ? AND aggregate_type = ? AND aggregate_id = ?)`;

const NEXT_VERSION_SQL = `UPDATE t_inbox_version SET last_version = ?, updated_at = ?
  WHERE consumer = ? AND aggregate_type = ? AND aggregate_id = ?
    AND last_version = ? AND parked_count = 0`;

/**
 * The apply step's statements on MySQL and MariaDB (mysql2: `?` placeholders, a list expanded
 * in `IN (?)`). A duplicate inbox row fails its INSERT on uk_inbox_consumer_event, which the
 * store catches: MySQL's transaction stays usable after a failed statement. Times are this
 * process's clock (`new Date()`).
 */
export const mysqlInboxApplySql: InboxApplySql = {
  engine: 'mysql',
  ...sharedApplySql(() => '?'),

  arrival: (consumer, envelope, outcome) => ({
    sql: ARRIVAL_SQL,
    params: [
      consumer,
      envelope.eventKey,
      envelope.eventType,
      envelope.eventId,
      outcome,
      new Date(),
    ],
    read: () => 'arrived',
  }),

  // Two statements: in one round trip where the pool allows several per query, the server
  // stops at a failed INSERT, so a duplicate leaves the gate untouched.
  fastAdmission: (consumer, envelope, outcome) => {
    const { aggregateType, aggregateId, aggregateVersion } = envelope;
    const aggregate = [consumer, aggregateType, aggregateId];
    const arrival = mysqlInboxApplySql.arrival(consumer, envelope, outcome);
    const gate =
      aggregateVersion === 1
        ? { sql: FIRST_VERSION_SQL, params: [...aggregate, new Date(), ...aggregate] }
        : {
            sql: NEXT_VERSION_SQL,
            params: [aggregateVersion, new Date(), ...aggregate, aggregateVersion - 1],
          };
    return [
      arrival,
      { ...gate, read: (result) => (affectedRows(result) === 1 ? 'advanced' : 'arrived') },
    ];
  },

  // The event's inbox row exists already (not some other unique key of the statement).
  isArrivalConflict: (error) =>
    isDuplicateKeyError(error) &&
    String((error as Error).message).includes('uk_inbox_consumer_event'),

  // One UPDATE for each number of times keys are listed.
  recordDuplicates: (consumer, eventKeys) => {
    const times = new Map<string, number>();
    for (const key of eventKeys) times.set(key, (times.get(key) ?? 0) + 1);
    const byCount = new Map<number, string[]>();
    for (const [key, n] of times) byCount.set(n, [...(byCount.get(n) ?? []), key]);
    const now = new Date();
    return [...byCount].map(([n, keys]) =>
      query(
        `UPDATE t_inbox SET duplicate_count = duplicate_count + ?, last_duplicate_at = ?
         WHERE consumer = ? AND event_key IN (?)`,
        [n, now, consumer, keys],
      ),
    );
  },

  insertVersion: (consumer, aggregateType, aggregateId, row) =>
    query(
      `INSERT INTO t_inbox_version
         (consumer, aggregate_type, aggregate_id, last_version, parked_count, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
      [consumer, aggregateType, aggregateId, row.lastVersion, row.parkedCount, new Date()],
    ),

  updateVersion: (consumer, aggregateType, aggregateId, row) =>
    query(
      `UPDATE t_inbox_version SET last_version = ?, parked_count = ?, updated_at = ?
       WHERE consumer = ? AND aggregate_type = ? AND aggregate_id = ?`,
      [row.lastVersion, row.parkedCount, new Date(), consumer, aggregateType, aggregateId],
    ),

  park: (consumer, envelope, alreadyHandled, position) =>
    query(
      `INSERT INTO t_inbox_parked (consumer, aggregate_type, aggregate_id, aggregate_version,
         event_key, event_type, envelope, already_handled, source_topic, source_partition,
         source_offset, parked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [...parkedRowValues(consumer, envelope, alreadyHandled, position), new Date()],
    ),

  readyAggregates: (consumer, limit) =>
    query(
      `SELECT p.aggregate_type, p.aggregate_id FROM t_inbox_parked p
       JOIN t_inbox_version v ON v.consumer = p.consumer
         AND v.aggregate_type = p.aggregate_type AND v.aggregate_id = p.aggregate_id
       WHERE p.consumer = ? AND p.aggregate_version = v.last_version + 1
       ORDER BY p.parked_at LIMIT ?`,
      [consumer, limit],
    ),

  existingKeys: (consumer, keys) =>
    query(
      `SELECT event_key FROM t_inbox WHERE consumer = ? AND event_key IN (${marks(keys.length)})`,
      [consumer, ...keys],
    ),

  recordArrivals: (consumer, arrivals) => {
    const now = new Date();
    return query(
      `INSERT INTO t_inbox (consumer, event_key, event_type, event_id, outcome, processed_at)
       VALUES ${tuples(arrivals.length, 6)}`,
      arrivals.flatMap(({ envelope, outcome }) => [
        consumer,
        envelope.eventKey,
        envelope.eventType,
        envelope.eventId,
        outcome,
        now,
      ]),
    );
  },

  lockVersions: (consumer, aggregates) =>
    query(
      `SELECT aggregate_type, aggregate_id, last_version, parked_count FROM t_inbox_version
       WHERE consumer = ? AND (aggregate_type, aggregate_id) IN (${tuples(aggregates.length, 2)})
       FOR UPDATE`,
      [consumer, ...aggregates.flatMap((a) => [a.aggregateType, a.aggregateId])],
    ),

  // Known rows are written by an upsert, safe since lockVersions holds them.
  saveVersions: (consumer, fresh, known) => {
    const now = new Date();
    const values = (list: typeof fresh) =>
      list.flatMap((r) => [
        consumer,
        r.aggregateType,
        r.aggregateId,
        r.lastVersion,
        r.parkedCount,
        now,
      ]);
    const statements: InboxQuery[] = [];
    if (fresh.length > 0) {
      statements.push(query(INSERT_GATES + tuples(fresh.length, 6), values(fresh)));
    }
    if (known.length > 0) {
      statements.push(
        query(
          `${INSERT_GATES}${tuples(known.length, 6)} ON DUPLICATE KEY UPDATE
           last_version = VALUES(last_version), parked_count = VALUES(parked_count),
           updated_at = VALUES(updated_at)`,
          values(known),
        ),
      );
    }
    return statements;
  },
};
