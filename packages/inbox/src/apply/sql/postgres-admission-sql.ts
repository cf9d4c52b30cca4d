import type { Statement } from '@outbox-inbox/database';
import type { EventEnvelope } from '@outbox-inbox/messaging';
import type { InboxQuery } from '../../inbox-query';
import type { Admission, StoredOutcome } from '../inbox-store.port';
import type { FastAdmission } from './inbox-apply-sql';

/**
 * The inbox row, unless this consumer has the event ($1 consumer, $2 key, $3 type, $4 id,
 * $5 outcome): `arrival` holds one row when it went in, none for a duplicate.
 */
const ARRIVAL_SQL = `WITH arrival AS (
    INSERT INTO t_inbox (consumer, event_key, event_type, event_id, outcome, processed_at)
    VALUES ($1, $2, $3, $4, $5, statement_timestamp())
    ON CONFLICT ON CONSTRAINT uk_inbox_consumer_event DO NOTHING
    RETURNING consumer
  )`;

/**
 * Version 1 creates the aggregate's gate row ($6 type, $7 id) when the inbox row went in and
 * the aggregate has none. A gate row another transaction is inserting is waited for; once it
 * commits, nothing is inserted here and the full path locks and reads it.
 */
const FIRST_VERSION_SQL = `
    INSERT INTO t_inbox_version
      (consumer, aggregate_type, aggregate_id, last_version, parked_count, updated_at)
    SELECT a.consumer, $6, $7, 1, 0, statement_timestamp() FROM arrival a
    ON CONFLICT ON CONSTRAINT pk_inbox_version DO NOTHING
    RETURNING last_version`;

/** The gate row NEXT_VERSION_SQL inserts when it found none, deleted again by `admit`. */
const PLACEHOLDER_VERSION = 0;

/**
 * A later version ($8) moves the gate from the one before, when nothing of the aggregate is
 * parked and the inbox row went in. An UPDATE would not do: its snapshot cannot see a gate row
 * that another transaction is inserting (version 1, not committed yet), so it would not wait
 * for it as InnoDB does, and the event would take the full path for nothing. An upsert's
 * conflict check sees that row, waits for its transaction, then updates what it committed.
 * When no row exists at all, it inserts a placeholder (version 0), which `admit` deletes.
 */
const NEXT_VERSION_SQL = `
    INSERT INTO t_inbox_version AS v
      (consumer, aggregate_type, aggregate_id, last_version, parked_count, updated_at)
    SELECT a.consumer, $6, $7, ${PLACEHOLDER_VERSION}, 0, statement_timestamp() FROM arrival a
    ON CONFLICT ON CONSTRAINT pk_inbox_version DO UPDATE
      SET last_version = $8, updated_at = statement_timestamp()
      WHERE v.last_version = $8::integer - 1 AND v.parked_count = 0
    RETURNING v.last_version`;

/** The inbox row with the gate's fast path of `gate`: built once, not for every event. */
const admissionSql = (gate: string) => `${ARRIVAL_SQL}, gate AS (${gate})
       SELECT EXISTS (SELECT 1 FROM arrival) AS arrived,
         (SELECT last_version FROM gate) AS gate_version`;
const FIRST_ADMISSION_SQL = admissionSql(FIRST_VERSION_SQL);
const NEXT_ADMISSION_SQL = admissionSql(NEXT_VERSION_SQL);

/** The inbox row alone; 'duplicate' when no row went in. */
export function postgresArrival(
  consumer: string,
  envelope: EventEnvelope,
  outcome: StoredOutcome,
): Statement<Admission> {
  return {
    sql: `${ARRIVAL_SQL} SELECT 1 FROM arrival`,
    params: [consumer, envelope.eventKey, envelope.eventType, envelope.eventId, outcome],
    read: (rows) => ((rows as unknown[]).length === 0 ? 'duplicate' : 'arrived'),
  };
}

/**
 * The inbox row and the gate's fast path in one statement, one round trip: a data-modifying
 * CTE inserts the inbox row unless this consumer has it (a concurrent insert of the same key
 * is waited for, then counts as there), and moves the gate only when the row went in.
 * 'duplicate' when no row went in, 'advanced' when the gate moved, 'placeholder' when
 * NEXT_VERSION_SQL found no gate row and left its placeholder, else 'arrived'.
 */
export function postgresFastAdmission(
  consumer: string,
  envelope: EventEnvelope,
  outcome: StoredOutcome,
): Statement<FastAdmission> {
  const { eventKey, eventType, eventId, aggregateType, aggregateId, aggregateVersion } = envelope;
  const aggregate = [consumer, eventKey, eventType, eventId, outcome, aggregateType, aggregateId];
  const first = aggregateVersion === 1;
  return {
    sql: first ? FIRST_ADMISSION_SQL : NEXT_ADMISSION_SQL,
    params: first ? aggregate : [...aggregate, aggregateVersion],
    read: (rows) => {
      const [{ arrived, gate_version }] = rows as Array<{
        arrived: boolean;
        gate_version: number | null;
      }>;
      if (!arrived) return 'duplicate';
      if (gate_version === aggregateVersion) return 'advanced';
      // No gate row existed, nor was one being inserted: the gate stays as it was.
      if (gate_version === PLACEHOLDER_VERSION) return 'placeholder';
      return 'arrived';
    },
  };
}

/** Deletes the placeholder gate row postgresFastAdmission left. */
export function postgresDropPlaceholderGate(
  consumer: string,
  aggregateType: string,
  aggregateId: string,
): InboxQuery {
  return {
    sql: `DELETE FROM t_inbox_version
         WHERE consumer = $1 AND aggregate_type = $2 AND aggregate_id = $3`,
    params: [consumer, aggregateType, aggregateId],
  };
}
