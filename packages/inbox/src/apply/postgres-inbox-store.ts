import { EventEnvelope } from '@outbox-inbox/messaging';
import { EntityManager } from 'typeorm';
import { DeliveryPosition } from '../inbox.options';
import {
  Admission,
  AggregateRef,
  GateRow,
  InboxStore,
  ParkedEvent,
  StoredOutcome,
} from './inbox-store.port';

/**
 * The InboxStore of PostgreSQL: the SQL of one consumer's inbox (t_inbox), version gate
 * (t_inbox_version) and parking lot (t_inbox_parked), in the caller's transaction. Where
 * MysqlInboxStore catches a duplicate key and carries on, this one never lets the statement
 * fail: a failed statement aborts a PostgreSQL transaction (25P02), and the handler's effect
 * still has to be written in it. `ON CONFLICT … DO NOTHING` answers a duplicate with no row
 * instead. Times are the server's statement_timestamp() (not now(): the transaction's start).
 */
export class PostgresInboxStore implements InboxStore {
  constructor(private readonly consumer: string) {}

  /**
   * Takes an event in, in one round trip: a data-modifying CTE inserts the inbox row unless
   * this consumer has it (a concurrent insert of the same key is waited for, then counts as
   * there), and moves the gate on the fast path only when the row went in. 'duplicate' when
   * no row went in, 'advanced' when the gate moved, else 'arrived'.
   */
  async admit(
    manager: EntityManager,
    envelope: EventEnvelope,
    outcome: StoredOutcome,
    fastPath = true,
  ): Promise<Admission> {
    const arrival = [this.consumer, envelope.eventKey, envelope.eventType, envelope.eventId];
    if (!fastPath) {
      const rows = (await manager.query(`${ARRIVAL_SQL} SELECT 1 FROM arrival`, [
        ...arrival,
        outcome,
      ])) as unknown[];
      return rows.length === 0 ? 'duplicate' : 'arrived';
    }
    const { aggregateType, aggregateId, aggregateVersion } = envelope;
    const aggregate = [...arrival, outcome, aggregateType, aggregateId];
    const [gate, params] =
      aggregateVersion === 1
        ? [FIRST_VERSION_SQL, aggregate]
        : [NEXT_VERSION_SQL, [...aggregate, aggregateVersion]];
    const [{ arrived, gate_version }] = (await manager.query(
      `${ARRIVAL_SQL}, gate AS (${gate})
       SELECT EXISTS (SELECT 1 FROM arrival) AS arrived,
         (SELECT last_version FROM gate) AS gate_version`,
      params,
    )) as Array<{ arrived: boolean; gate_version: number | null }>;
    if (!arrived) return 'duplicate';
    if (gate_version === aggregateVersion) return 'advanced';
    if (gate_version === PLACEHOLDER_VERSION) {
      // No gate row existed, nor was one being inserted: the gate stays as it was.
      await manager.query(
        `DELETE FROM t_inbox_version
         WHERE consumer = $1 AND aggregate_type = $2 AND aggregate_id = $3`,
        [this.consumer, aggregateType, aggregateId],
      );
    }
    return 'arrived';
  }

  /**
   * Counts redeliveries on their inbox rows, in one statement: a key listed n times adds n.
   */
  async recordDuplicates(manager: EntityManager, eventKeys: string[]): Promise<void> {
    if (eventKeys.length === 0) return;
    await manager.query(
      `UPDATE t_inbox i
       SET duplicate_count = i.duplicate_count + d.n, last_duplicate_at = statement_timestamp()
       FROM (SELECT key, COUNT(*)::integer AS n FROM unnest($2::varchar[]) AS key GROUP BY key) d
       WHERE i.consumer = $1 AND i.event_key = d.key`,
      [this.consumer, eventKeys],
    );
  }

  async setOutcome(
    manager: EntityManager,
    eventKey: string,
    outcome: StoredOutcome,
  ): Promise<void> {
    await manager.query(`UPDATE t_inbox SET outcome = $1 WHERE consumer = $2 AND event_key = $3`, [
      outcome,
      this.consumer,
      eventKey,
    ]);
  }

  /** The gate row, locked until commit; undefined when the aggregate was never seen. */
  async lockVersion(
    manager: EntityManager,
    aggregateType: string,
    aggregateId: string,
  ): Promise<GateRow | undefined> {
    const rows = (await manager.query(
      `SELECT last_version, parked_count FROM t_inbox_version
       WHERE consumer = $1 AND aggregate_type = $2 AND aggregate_id = $3 FOR UPDATE`,
      [this.consumer, aggregateType, aggregateId],
    )) as Array<{ last_version: number; parked_count: number }>;
    if (rows.length === 0) return undefined;
    return { lastVersion: Number(rows[0].last_version), parkedCount: Number(rows[0].parked_count) };
  }

  /**
   * Stores the gate row. A first row is a plain INSERT: a row another instance inserted
   * meanwhile fails it (23505), which aborts the transaction; the caller retries it whole and
   * then sees the row.
   */
  async saveVersion(
    manager: EntityManager,
    aggregateType: string,
    aggregateId: string,
    row: GateRow,
    firstRow: boolean,
  ): Promise<void> {
    if (firstRow) {
      await manager.query(
        `INSERT INTO t_inbox_version
           (consumer, aggregate_type, aggregate_id, last_version, parked_count, updated_at)
         VALUES ($1, $2, $3, $4, $5, statement_timestamp())`,
        [this.consumer, aggregateType, aggregateId, row.lastVersion, row.parkedCount],
      );
      return;
    }
    await manager.query(
      `UPDATE t_inbox_version
       SET last_version = $1, parked_count = $2, updated_at = statement_timestamp()
       WHERE consumer = $3 AND aggregate_type = $4 AND aggregate_id = $5`,
      [row.lastVersion, row.parkedCount, this.consumer, aggregateType, aggregateId],
    );
  }

  async park(
    manager: EntityManager,
    envelope: EventEnvelope,
    alreadyHandled: boolean,
    position: DeliveryPosition,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO t_inbox_parked (consumer, aggregate_type, aggregate_id, aggregate_version,
         event_key, event_type, envelope, already_handled, source_topic, source_partition,
         source_offset, parked_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, statement_timestamp())`,
      [
        this.consumer,
        envelope.aggregateType,
        envelope.aggregateId,
        envelope.aggregateVersion,
        envelope.eventKey,
        envelope.eventType,
        JSON.stringify(envelope),
        alreadyHandled ? 1 : 0,
        position.topic,
        position.partition,
        position.offset,
      ],
    );
  }

  /**
   * Aggregates whose parked event is the next version, oldest first; events parked in the
   * same millisecond in the order they were parked (`id`).
   */
  async readyAggregates(manager: EntityManager, limit: number): Promise<AggregateRef[]> {
    const rows = (await manager.query(
      `SELECT p.aggregate_type, p.aggregate_id FROM t_inbox_parked p
       JOIN t_inbox_version v ON v.consumer = p.consumer
         AND v.aggregate_type = p.aggregate_type AND v.aggregate_id = p.aggregate_id
       WHERE p.consumer = $1 AND p.aggregate_version = v.last_version + 1
       ORDER BY p.parked_at, p.id LIMIT $2`,
      [this.consumer, limit],
    )) as Array<{ aggregate_type: string; aggregate_id: string }>;
    return rows.map((r) => ({ aggregateType: r.aggregate_type, aggregateId: r.aggregate_id }));
  }

  /**
   * Removes and returns the parked event of `version`, if there is one and `keep` does not
   * hold it back: read and locked first, since `keep` decides in between.
   */
  async takeParked(
    manager: EntityManager,
    aggregateType: string,
    aggregateId: string,
    version: number,
    keep: (envelope: EventEnvelope) => boolean = () => false,
  ): Promise<ParkedEvent | undefined> {
    const rows = (await manager.query(
      `SELECT id, envelope, already_handled, source_topic, source_partition, source_offset
       FROM t_inbox_parked
       WHERE consumer = $1 AND aggregate_type = $2 AND aggregate_id = $3
         AND aggregate_version = $4
       FOR UPDATE`,
      [this.consumer, aggregateType, aggregateId, version],
    )) as Array<{
      id: string;
      envelope: string;
      already_handled: number;
      source_topic: string;
      source_partition: number;
      source_offset: string;
    }>;
    if (rows.length === 0) return undefined;
    const row = rows[0];
    const envelope = JSON.parse(row.envelope) as EventEnvelope;
    if (keep(envelope)) return undefined;
    await manager.query(`DELETE FROM t_inbox_parked WHERE id = $1`, [row.id]);
    return {
      envelope,
      alreadyHandled: Number(row.already_handled) === 1,
      position: {
        topic: row.source_topic,
        partition: Number(row.source_partition),
        offset: String(row.source_offset),
      },
    };
  }
}

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
