import type { NewOutboxRow, OutboxQuery, OutboxSql } from './outbox-sql';

/** A statement's `position`th placeholder (from 1) in an engine's words: `?` or `$n`. */
export type Placeholder = (position: number) => string;

/** The outbox statements whose text is the same on every engine but for its placeholders. */
export type SharedOutboxStatements = Pick<
  OutboxSql,
  'atVersion' | 'countByStatus' | 'retryingRows' | 'rowsOfAggregate'
>;

const query = (sql: string, params: unknown[] = []): OutboxQuery => ({ sql, params });

/** The values of an inserted row, in the order of both engines' INSERT. */
export function insertValues(row: NewOutboxRow): unknown[] {
  return [
    row.aggregateType,
    row.aggregateId,
    row.aggregateVersion,
    row.eventType,
    row.eventKey,
    row.eventId,
    row.payload,
    row.headers,
  ];
}

/**
 * The outbox statements written once, in `$`'s placeholders: each engine's OutboxSql spreads
 * them beside its own, so a change to one of them reaches both engines.
 */
export function sharedOutboxSql($: Placeholder): SharedOutboxStatements {
  return {
    atVersion: (aggregateType, aggregateId, aggregateVersion) =>
      query(
        `SELECT event_key, payload FROM t_outbox
         WHERE aggregate_type = ${$(1)} AND aggregate_id = ${$(2)} AND aggregate_version = ${$(3)}`,
        [aggregateType, aggregateId, aggregateVersion],
      ),

    countByStatus: () =>
      query(
        `SELECT status, COUNT(*) AS n FROM t_outbox
         WHERE status IN ('NEW', 'SENDING', 'DEAD') GROUP BY status`,
      ),

    retryingRows: () =>
      query(`SELECT COUNT(*) AS n FROM t_outbox WHERE status = 'NEW' AND retry_count > 0`),

    rowsOfAggregate: (aggregateType, aggregateId) =>
      query(
        `SELECT id, event_key, event_type, aggregate_version, status, retry_count, last_error,
           created_at, updated_at, sent_at, next_retry_at
         FROM t_outbox WHERE aggregate_type = ${$(1)} AND aggregate_id = ${$(2)}
         ORDER BY aggregate_version, id`,
        [aggregateType, aggregateId],
      ),
  };
}
