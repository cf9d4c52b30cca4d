import { EntityManager } from 'typeorm';
import { aggregateKey, AggregateRef, GateRow, InboxBatchStore } from './inbox-store.port';
import { Arrival, InboxApplySql } from './sql/inbox-apply-sql';

/**
 * The InboxBatchStore of a SQL database: multi-row forms of SqlInboxStore's statements for
 * batched mode, written by its engine's InboxApplySql.
 */
export class SqlInboxBatchStore implements InboxBatchStore {
  constructor(
    private readonly consumer: string,
    private readonly sql: InboxApplySql,
  ) {}

  /** Event keys of `keys` this consumer already took in. */
  async existingKeys(manager: EntityManager, keys: string[]): Promise<Set<string>> {
    const { sql, params } = this.sql.existingKeys(this.consumer, keys);
    const rows = (await manager.query(sql, params)) as Array<{ event_key: string }>;
    return new Set(rows.map((r) => r.event_key));
  }

  /**
   * Inserts the inbox rows. A row inserted meanwhile by another instance (rebalance) fails the
   * statement with a duplicate key; the batch is then settled message by message.
   */
  async recordArrivals(manager: EntityManager, arrivals: Arrival[]): Promise<void> {
    const { sql, params } = this.sql.recordArrivals(this.consumer, arrivals);
    await manager.query(sql, params);
  }

  /** The gate rows of `aggregates`, locked until commit. */
  async lockVersions(
    manager: EntityManager,
    aggregates: AggregateRef[],
  ): Promise<Map<string, GateRow>> {
    const { sql, params } = this.sql.lockVersions(this.consumer, aggregates);
    const rows = (await manager.query(sql, params)) as Array<{
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
   * Writes gate rows back: new rows plainly inserted, so that a concurrent first insert fails
   * (all or none) instead of being overwritten; known rows, locked by lockVersions, written over.
   */
  async saveVersions(
    manager: EntityManager,
    rows: Array<AggregateRef & GateRow & { isNew: boolean }>,
  ): Promise<void> {
    const fresh = rows.filter((r) => r.isNew);
    const known = rows.filter((r) => !r.isNew);
    for (const { sql, params } of this.sql.saveVersions(this.consumer, fresh, known)) {
      await manager.query(sql, params);
    }
  }
}
