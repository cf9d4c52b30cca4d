import { engineOf } from '@outbox-inbox/database';
import { DataSource } from 'typeorm';

/** One statement and its values, in the placeholders of its engine. */
export interface BenchStatement {
  sql: string;
  params: unknown[];
}

/**
 * The relay bench's own statements on t_outbox (the baselines' and the reset between runs),
 * in the words of each engine: `?` and UTC_TIMESTAMP(3) on MySQL/MariaDB, `$n` and
 * statement_timestamp() on PostgreSQL (whose t_outbox times are TIMESTAMPTZ(3)).
 */
export interface RelayBenchSql {
  /** Makes the rows of an id range NEW and due again. */
  resetToNew(firstId: string, lastId: string): BenchStatement;
  /** An id range's key, value and headers, in id order. */
  rowsInRange(firstId: string, lastId: string): BenchStatement;
  /** The minimal relay's claim: up to `limit` due NEW rows, locked, skipping locked ones. */
  claimDue(limit: number): BenchStatement;
  /** The minimal relay's outcome write: the claimed rows SENT. */
  markSent(ids: string[]): BenchStatement;
}

export const mysqlRelayBenchSql: RelayBenchSql = {
  resetToNew: (firstId, lastId) => ({
    sql: `UPDATE t_outbox SET status = 'NEW', next_retry_at = UTC_TIMESTAMP(3), lease_owner = NULL,
       lease_token = NULL, lease_until = NULL, retry_count = 0
     WHERE id BETWEEN ? AND ?`,
    params: [firstId, lastId],
  }),
  rowsInRange: (firstId, lastId) => ({
    sql: `SELECT aggregate_type, aggregate_id, event_type, payload, headers FROM t_outbox
       WHERE id BETWEEN ? AND ? ORDER BY id`,
    params: [firstId, lastId],
  }),
  claimDue: (limit) => ({
    sql: `SELECT id, aggregate_id, payload, headers FROM t_outbox
       WHERE status = 'NEW' AND next_retry_at <= UTC_TIMESTAMP(3)
       ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
    params: [],
  }),
  markSent: (ids) => ({
    sql: `UPDATE t_outbox SET status = 'SENT', sent_at = UTC_TIMESTAMP(3), updated_at = UTC_TIMESTAMP(3)
       WHERE id IN (${ids.map(() => '?').join(',')})`,
    params: ids,
  }),
};

const postgresSql: RelayBenchSql = {
  resetToNew: (firstId, lastId) => ({
    sql: `UPDATE t_outbox SET status = 'NEW', next_retry_at = statement_timestamp(),
       lease_owner = NULL, lease_token = NULL, lease_until = NULL, retry_count = 0
     WHERE id BETWEEN $1 AND $2`,
    params: [firstId, lastId],
  }),
  rowsInRange: (firstId, lastId) => ({
    sql: `SELECT aggregate_type, aggregate_id, event_type, payload, headers FROM t_outbox
       WHERE id BETWEEN $1 AND $2 ORDER BY id`,
    params: [firstId, lastId],
  }),
  // The same claim as MariaDB's; the claim index (status, next_retry_at, id) serves it.
  claimDue: (limit) => ({
    sql: `SELECT id, aggregate_id, payload, headers FROM t_outbox
       WHERE status = 'NEW' AND next_retry_at <= statement_timestamp()
       ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
    params: [],
  }),
  markSent: (ids) => ({
    sql: `UPDATE t_outbox SET status = 'SENT', sent_at = statement_timestamp(),
       updated_at = statement_timestamp()
     WHERE id = ANY($1::bigint[])`,
    params: [ids],
  }),
};

/** The statements for `dataSource`'s engine. */
export function relayBenchSql(dataSource: DataSource): RelayBenchSql {
  return engineOf(dataSource.options.type) === 'postgres' ? postgresSql : mysqlRelayBenchSql;
}
