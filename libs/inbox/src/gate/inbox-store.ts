import { EventEnvelope } from '@app/contracts';
import { isDuplicateKeyError } from '@app/database';
import { EntityManager } from 'typeorm';
import { DeliveryPosition } from '../inbox.options';

/** What became of an event in the inbox; stored in t_inbox.outcome. */
export type StoredOutcome = 'applied' | 'ignored' | 'stale' | 'parked';

/** An event parked until the versions before it arrive. */
export interface ParkedEvent {
  envelope: EventEnvelope;
  alreadyHandled: boolean;
  position: DeliveryPosition;
}

/**
 * The SQL of one consumer's inbox, version gate and parking lot. Every method takes the
 * caller's transaction manager: the inbox row, the gate and the handler's effect commit or roll
 * back together.
 */
export class InboxStore {
  constructor(private readonly consumer: string) {}

  /** Inserts the inbox row; false when this consumer already took the event in. */
  async recordArrival(
    manager: EntityManager,
    envelope: EventEnvelope,
    outcome: StoredOutcome,
  ): Promise<boolean> {
    try {
      await manager.query(
        `INSERT INTO t_inbox (consumer, event_key, event_type, event_id, outcome, processed_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
        [
          this.consumer,
          envelope.eventKey,
          envelope.eventType,
          envelope.eventId,
          outcome,
          new Date(),
        ],
      );
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async setOutcome(
    manager: EntityManager,
    eventKey: string,
    outcome: StoredOutcome,
  ): Promise<void> {
    await manager.query(`UPDATE t_inbox SET outcome = ? WHERE consumer = ? AND event_key = ?`, [
      outcome,
      this.consumer,
      eventKey,
    ]);
  }

  /** The last applied version, locking the gate row until commit; undefined when none. */
  async lockVersion(
    manager: EntityManager,
    aggregateType: string,
    aggregateId: string,
  ): Promise<number | undefined> {
    const rows = (await manager.query(
      `SELECT last_version FROM t_inbox_version
       WHERE consumer = ? AND aggregate_type = ? AND aggregate_id = ? FOR UPDATE`,
      [this.consumer, aggregateType, aggregateId],
    )) as Array<{ last_version: number | string }>;
    return rows.length === 0 ? undefined : Number(rows[0].last_version);
  }

  /**
   * Stores the new last version. A first row is inserted: if another consumer instance (during
   * a rebalance) inserted it meanwhile, the duplicate key fails the transaction, which is
   * retried and then sees the row.
   */
  async saveVersion(
    manager: EntityManager,
    aggregateType: string,
    aggregateId: string,
    version: number,
    firstRow: boolean,
  ): Promise<void> {
    if (firstRow) {
      await manager.query(
        `INSERT INTO t_inbox_version (consumer, aggregate_type, aggregate_id, last_version, updated_at)
         VALUES (?, ?, ?, ?, ?)`,
        [this.consumer, aggregateType, aggregateId, version, new Date()],
      );
      return;
    }
    await manager.query(
      `UPDATE t_inbox_version SET last_version = ?, updated_at = ?
       WHERE consumer = ? AND aggregate_type = ? AND aggregate_id = ?`,
      [version, new Date(), this.consumer, aggregateType, aggregateId],
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
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
        new Date(),
      ],
    );
  }

  /** Removes and returns the parked event of `version`, if there is one. */
  async takeParked(
    manager: EntityManager,
    aggregateType: string,
    aggregateId: string,
    version: number,
  ): Promise<ParkedEvent | undefined> {
    const rows = (await manager.query(
      `SELECT id, envelope, already_handled, source_topic, source_partition, source_offset
       FROM t_inbox_parked
       WHERE consumer = ? AND aggregate_type = ? AND aggregate_id = ? AND aggregate_version = ?
       FOR UPDATE`,
      [this.consumer, aggregateType, aggregateId, version],
    )) as Array<{
      id: string;
      envelope: string | object;
      already_handled: number | string;
      source_topic: string;
      source_partition: number;
      source_offset: string | number;
    }>;
    if (rows.length === 0) return undefined;
    const row = rows[0];
    await manager.query(`DELETE FROM t_inbox_parked WHERE id = ?`, [row.id]);
    return {
      // LONGTEXT arrives as a string; a JSON column on MySQL would arrive parsed.
      envelope: (typeof row.envelope === 'string'
        ? JSON.parse(row.envelope)
        : row.envelope) as EventEnvelope,
      alreadyHandled: Number(row.already_handled) === 1,
      position: {
        topic: row.source_topic,
        partition: Number(row.source_partition),
        offset: String(row.source_offset),
      },
    };
  }
}
