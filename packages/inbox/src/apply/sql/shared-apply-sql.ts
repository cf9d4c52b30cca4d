import type { InboxQuery } from '../../inbox-query';
import type { InboxApplySql } from './inbox-apply-sql';

/** A statement's `position`th placeholder (from 1) in an engine's words: `?` or `$n`. */
export type Placeholder = (position: number) => string;

/** The apply statements whose text is the same on every engine but for its placeholders. */
export type SharedApplyStatements = Pick<
  InboxApplySql,
  'setOutcome' | 'lockVersion' | 'lockParked' | 'deleteParked'
>;

const query = (sql: string, params: unknown[]): InboxQuery => ({ sql, params });

/**
 * The apply statements written once, in `$`'s placeholders: each engine's InboxApplySql
 * spreads them beside its own, so a change to one of them reaches both engines.
 */
export function sharedApplySql($: Placeholder): SharedApplyStatements {
  return {
    setOutcome: (consumer, eventKey, outcome) =>
      query(
        `UPDATE t_inbox SET outcome = ${$(1)} WHERE consumer = ${$(2)} AND event_key = ${$(3)}`,
        [outcome, consumer, eventKey],
      ),

    lockVersion: (consumer, aggregateType, aggregateId) =>
      query(
        `SELECT last_version, parked_count FROM t_inbox_version
         WHERE consumer = ${$(1)} AND aggregate_type = ${$(2)} AND aggregate_id = ${$(3)} FOR UPDATE`,
        [consumer, aggregateType, aggregateId],
      ),

    lockParked: (consumer, aggregateType, aggregateId, version) =>
      query(
        `SELECT id, envelope, already_handled, source_topic, source_partition, source_offset
         FROM t_inbox_parked
         WHERE consumer = ${$(1)} AND aggregate_type = ${$(2)} AND aggregate_id = ${$(3)}
           AND aggregate_version = ${$(4)}
         FOR UPDATE`,
        [consumer, aggregateType, aggregateId, version],
      ),

    deleteParked: (id) => query(`DELETE FROM t_inbox_parked WHERE id = ${$(1)}`, [id]),
  };
}
