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
 * The InboxBatchStore of MySQL/MariaDB: multi-row forms of MysqlInboxStore's statements for
 * batched mode.
 */
export class MysqlInboxBatchStore implements InboxBatchStore {
  constructor(private readonly consumer: string) {}

  /** Event keys of `keys` this consumer already took in. */
  async existingKeys(manager: EntityManager, keys: string[]): Promise<Set<string>> {
    const rows = (await manager.query(
      `SELECT event_key FROM t_inbox WHERE consumer = ? AND event_key IN (${marks(keys.length)})`,
      [this.consumer, ...keys],
    )) as Array<{ event_key: string }>;
    return new Set(rows.map((r) => r.event_key));
  }

  /**
   * Inserts the inbox rows. A row inserted meanwhile by another instance (rebalance) fails the
   * statement with a duplicate key; the batch is then settled message by message.
   */
  async recordArrivals(
    manager: EntityManager,
    arrivals: Array<{ envelope: EventEnvelope; outcome: StoredOutcome }>,
  ): Promise<void> {
    const now = new Date();
    await manager.query(
      `INSERT INTO t_inbox (consumer, event_key, event_type, event_id, outcome, processed_at)
       VALUES ${arrivals.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
      arrivals.flatMap(({ envelope, outcome }) => [
        this.consumer,
        envelope.eventKey,
        envelope.eventType,
        envelope.eventId,
        outcome,
        now,
      ]),
    );
  }

  /** The gate rows of `aggregates`, locked until commit. */
  async lockVersions(
    manager: EntityManager,
    aggregates: AggregateRef[],
  ): Promise<Map<string, GateRow>> {
    const rows = (await manager.query(
      `SELECT aggregate_type, aggregate_id, last_version, parked_count FROM t_inbox_version
       WHERE consumer = ? AND (aggregate_type, aggregate_id) IN (${aggregates.map(() => '(?, ?)').join(', ')})
       FOR UPDATE`,
      [this.consumer, ...aggregates.flatMap((a) => [a.aggregateType, a.aggregateId])],
    )) as Array<{
      aggregate_type: string;
      aggregate_id: string;
      last_version: number | string;
      parked_count: number | string;
    }>;
    return new Map(
      rows.map((r) => [
        aggregateKey({ aggregateType: r.aggregate_type, aggregateId: r.aggregate_id }),
        { lastVersion: Number(r.last_version), parkedCount: Number(r.parked_count) },
      ]),
    );
  }

  /**
   * Writes gate rows back. Existing rows are locked by lockVersions, so an upsert is safe for
   * them; new rows are plainly inserted, so a concurrent first insert fails instead of being
   * overwritten.
   */
  async saveVersions(
    manager: EntityManager,
    rows: Array<AggregateRef & GateRow & { isNew: boolean }>,
  ): Promise<void> {
    const now = new Date();
    const values = (list: typeof rows) =>
      list.flatMap((r) => [
        this.consumer,
        r.aggregateType,
        r.aggregateId,
        r.lastVersion,
        r.parkedCount,
        now,
      ]);
    const tuples = (n: number) => Array.from({ length: n }, () => '(?, ?, ?, ?, ?, ?)').join(', ');
    const fresh = rows.filter((r) => r.isNew);
    const known = rows.filter((r) => !r.isNew);
    const insert = `INSERT INTO t_inbox_version
      (consumer, aggregate_type, aggregate_id, last_version, parked_count, updated_at) VALUES `;
    if (fresh.length > 0) await manager.query(insert + tuples(fresh.length), values(fresh));
    if (known.length > 0) {
      await manager.query(
        `${insert}${tuples(known.length)} ON DUPLICATE KEY UPDATE
           last_version = VALUES(last_version), parked_count = VALUES(parked_count),
           updated_at = VALUES(updated_at)`,
        values(known),
      );
    }
  }
}

function marks(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}
