import { EventEnvelope } from '@outbox-inbox/messaging';
import { EntityManager } from 'typeorm';
import {
  aggregateKey,
  AggregateRef,
  GateRow,
  InboxBatchStore,
  StoredOutcome,
} from './inbox-store.port';

/**
 * The InboxBatchStore of PostgreSQL: multi-row forms of PostgresInboxStore's statements for
 * batched mode. Lists travel as array parameters (`= ANY($n)`, `unnest`), so each statement's
 * text is the same whatever the batch's size.
 */
export class PostgresInboxBatchStore implements InboxBatchStore {
  constructor(private readonly consumer: string) {}

  /** Event keys of `keys` this consumer already took in. */
  async existingKeys(manager: EntityManager, keys: string[]): Promise<Set<string>> {
    const rows = (await manager.query(
      `SELECT event_key FROM t_inbox WHERE consumer = $1 AND event_key = ANY($2::varchar[])`,
      [this.consumer, keys],
    )) as Array<{ event_key: string }>;
    return new Set(rows.map((r) => r.event_key));
  }

  /**
   * Inserts the inbox rows, with no ON CONFLICT on purpose: a row inserted meanwhile by
   * another instance (rebalance) fails the statement, and with it the transaction; the batch
   * is then settled message by message, each in a transaction of its own.
   */
  async recordArrivals(
    manager: EntityManager,
    arrivals: Array<{ envelope: EventEnvelope; outcome: StoredOutcome }>,
  ): Promise<void> {
    const column = (pick: (a: (typeof arrivals)[number]) => string) => arrivals.map(pick);
    await manager.query(
      `INSERT INTO t_inbox (consumer, event_key, event_type, event_id, outcome, processed_at)
       SELECT $1, a.event_key, a.event_type, a.event_id, a.outcome, statement_timestamp()
       FROM unnest($2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[])
         AS a(event_key, event_type, event_id, outcome)`,
      [
        this.consumer,
        column((a) => a.envelope.eventKey),
        column((a) => a.envelope.eventType),
        column((a) => a.envelope.eventId),
        column((a) => a.outcome),
      ],
    );
  }

  /**
   * The gate rows of `aggregates`, locked until commit, in key order: two batches locking
   * overlapping aggregates take their locks in the same order and never deadlock on them.
   */
  async lockVersions(
    manager: EntityManager,
    aggregates: AggregateRef[],
  ): Promise<Map<string, GateRow>> {
    const rows = (await manager.query(
      `SELECT aggregate_type, aggregate_id, last_version, parked_count FROM t_inbox_version
       WHERE consumer = $1 AND (aggregate_type, aggregate_id) IN
         (SELECT * FROM unnest($2::varchar[], $3::varchar[]))
       ORDER BY aggregate_type, aggregate_id
       FOR UPDATE`,
      [this.consumer, aggregates.map((a) => a.aggregateType), aggregates.map((a) => a.aggregateId)],
    )) as Array<{
      aggregate_type: string;
      aggregate_id: string;
      last_version: number;
      parked_count: number;
    }>;
    return new Map(
      rows.map((r) => [
        aggregateKey({ aggregateType: r.aggregate_type, aggregateId: r.aggregate_id }),
        { lastVersion: Number(r.last_version), parkedCount: Number(r.parked_count) },
      ]),
    );
  }

  /**
   * Writes gate rows back: new rows plainly inserted, so that a concurrent first insert fails
   * (all or none) instead of being overwritten; known rows, locked by lockVersions, updated.
   */
  async saveVersions(
    manager: EntityManager,
    rows: Array<AggregateRef & GateRow & { isNew: boolean }>,
  ): Promise<void> {
    const params = (list: typeof rows) => [
      this.consumer,
      list.map((r) => r.aggregateType),
      list.map((r) => r.aggregateId),
      list.map((r) => r.lastVersion),
      list.map((r) => r.parkedCount),
    ];
    const gates = `unnest($2::varchar[], $3::varchar[], $4::integer[], $5::integer[])
      AS r(aggregate_type, aggregate_id, last_version, parked_count)`;
    const fresh = rows.filter((r) => r.isNew);
    const known = rows.filter((r) => !r.isNew);
    if (fresh.length > 0) {
      await manager.query(
        `INSERT INTO t_inbox_version
           (consumer, aggregate_type, aggregate_id, last_version, parked_count, updated_at)
         SELECT $1, r.aggregate_type, r.aggregate_id, r.last_version, r.parked_count,
           statement_timestamp()
         FROM ${gates}`,
        params(fresh),
      );
    }
    if (known.length > 0) {
      await manager.query(
        `UPDATE t_inbox_version v SET last_version = r.last_version,
           parked_count = r.parked_count, updated_at = statement_timestamp()
         FROM ${gates}
         WHERE v.consumer = $1 AND v.aggregate_type = r.aggregate_type
           AND v.aggregate_id = r.aggregate_id`,
        params(known),
      );
    }
  }
}
