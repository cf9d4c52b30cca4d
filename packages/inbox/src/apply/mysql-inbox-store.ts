import { EventEnvelope } from '@outbox-inbox/messaging';
import { affectedRows, isDuplicateKeyError } from '@outbox-inbox/database';
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
 * The InboxStore of MySQL/MariaDB: the SQL of one consumer's inbox (t_inbox), version gate
 * (t_inbox_version) and parking lot (t_inbox_parked). Every method takes the caller's
 * transaction manager: the inbox row, the gate and the handler's effect commit or roll back
 * together.
 */
export class MysqlInboxStore implements InboxStore {
  /**
   * @param multipleStatements the pool lets one query carry several statements (mysql2
   *   `multipleStatements`, on in `mysqlDataSourceOptions`): an event then costs one round trip
   *   less.
   */
  constructor(
    private readonly consumer: string,
    private readonly multipleStatements = false,
  ) {}

  /**
   * Takes an event in: its inbox row, then the gate's fast path. 'duplicate' when this consumer
   * already took the event in (nothing changed), 'advanced' when the aggregate moved to this
   * version (version 1: its gate row was created), 'arrived' when the row is in and the gate
   * needs the full path (something is parked, the version is not the next one, or a version 1
   * of an aggregate already seen). With `multipleStatements` both statements travel in one
   * round trip; the server stops at a failed INSERT, so a duplicate leaves the gate untouched.
   */
  async admit(
    manager: EntityManager,
    envelope: EventEnvelope,
    outcome: StoredOutcome,
    fastPath = true,
  ): Promise<Admission> {
    const arrival = [
      this.consumer,
      envelope.eventKey,
      envelope.eventType,
      envelope.eventId,
      outcome,
      new Date(),
    ];
    const gate = this.fastGate(envelope);
    try {
      if (!fastPath) {
        await manager.query(ARRIVAL_SQL, arrival);
        return 'arrived';
      }
      if (this.multipleStatements) {
        const [, gateResult] = (await manager.query(`${ARRIVAL_SQL};\n${gate.sql}`, [
          ...arrival,
          ...gate.params,
        ])) as unknown[];
        return affectedRows(gateResult) === 1 ? 'advanced' : 'arrived';
      }
      await manager.query(ARRIVAL_SQL, arrival);
    } catch (error) {
      if (isInboxKeyConflict(error)) return 'duplicate';
      throw error;
    }
    return affectedRows(await manager.query(gate.sql, gate.params)) === 1 ? 'advanced' : 'arrived';
  }

  /**
   * The gate's one-statement fast path, which changes one row or none: version 1 creates the
   * aggregate's gate row if it has none; a later version moves `version - 1` to `version` when
   * nothing of the aggregate is parked.
   */
  private fastGate(envelope: EventEnvelope): { sql: string; params: unknown[] } {
    const { aggregateType, aggregateId, aggregateVersion } = envelope;
    const aggregate = [this.consumer, aggregateType, aggregateId];
    return aggregateVersion === 1
      ? { sql: FIRST_VERSION_SQL, params: [...aggregate, new Date(), ...aggregate] }
      : {
          sql: NEXT_VERSION_SQL,
          params: [aggregateVersion, new Date(), ...aggregate, aggregateVersion - 1],
        };
  }

  /**
   * Counts redeliveries on their inbox rows (`duplicate_count`, `last_duplicate_at`), in the
   * caller's transaction, so absorbed duplicates stay visible after a restart. A key listed n
   * times counts n.
   */
  async recordDuplicates(manager: EntityManager, eventKeys: string[]): Promise<void> {
    const times = new Map<string, number>();
    for (const key of eventKeys) times.set(key, (times.get(key) ?? 0) + 1);
    const byCount = new Map<number, string[]>();
    for (const [key, n] of times) byCount.set(n, [...(byCount.get(n) ?? []), key]);
    const now = new Date();
    for (const [n, keys] of byCount) {
      await manager.query(
        `UPDATE t_inbox SET duplicate_count = duplicate_count + ?, last_duplicate_at = ?
         WHERE consumer = ? AND event_key IN (?)`,
        [n, now, this.consumer, keys],
      );
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

  /** The gate row, locked until commit; undefined when the aggregate was never seen. */
  async lockVersion(
    manager: EntityManager,
    aggregateType: string,
    aggregateId: string,
  ): Promise<GateRow | undefined> {
    const rows = (await manager.query(
      `SELECT last_version, parked_count FROM t_inbox_version
       WHERE consumer = ? AND aggregate_type = ? AND aggregate_id = ? FOR UPDATE`,
      [this.consumer, aggregateType, aggregateId],
    )) as Array<{ last_version: number | string; parked_count: number | string }>;
    if (rows.length === 0) return undefined;
    return { lastVersion: Number(rows[0].last_version), parkedCount: Number(rows[0].parked_count) };
  }

  /**
   * Stores the gate row. A first row is inserted: if another consumer instance (during a
   * rebalance) inserted it meanwhile, the duplicate key fails the transaction, which is
   * retried and then sees the row.
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
         VALUES (?, ?, ?, ?, ?, ?)`,
        [this.consumer, aggregateType, aggregateId, row.lastVersion, row.parkedCount, new Date()],
      );
      return;
    }
    await manager.query(
      `UPDATE t_inbox_version SET last_version = ?, parked_count = ?, updated_at = ?
       WHERE consumer = ? AND aggregate_type = ? AND aggregate_id = ?`,
      [row.lastVersion, row.parkedCount, new Date(), this.consumer, aggregateType, aggregateId],
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

  /**
   * Aggregates whose parked event is the next version (held back before: a newer schema this
   * consumer could not read then, or a gap skipped since), oldest first.
   */
  async readyAggregates(manager: EntityManager, limit: number): Promise<AggregateRef[]> {
    const rows = (await manager.query(
      `SELECT p.aggregate_type, p.aggregate_id FROM t_inbox_parked p
       JOIN t_inbox_version v ON v.consumer = p.consumer
         AND v.aggregate_type = p.aggregate_type AND v.aggregate_id = p.aggregate_id
       WHERE p.consumer = ? AND p.aggregate_version = v.last_version + 1
       ORDER BY p.parked_at LIMIT ?`,
      [this.consumer, limit],
    )) as Array<{ aggregate_type: string; aggregate_id: string }>;
    return rows.map((r) => ({ aggregateType: r.aggregate_type, aggregateId: r.aggregate_id }));
  }

  /**
   * Removes and returns the parked event of `version`, if there is one and `keep` does not
   * hold it back (an event this consumer cannot apply yet stays parked).
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
    // LONGTEXT arrives as a string; a JSON column on MySQL would arrive parsed.
    const envelope = (
      typeof row.envelope === 'string' ? JSON.parse(row.envelope) : row.envelope
    ) as EventEnvelope;
    if (keep(envelope)) return undefined;
    await manager.query(`DELETE FROM t_inbox_parked WHERE id = ?`, [row.id]);
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

/** The event's inbox row exists already (not some other unique key of the statement). */
function isInboxKeyConflict(error: unknown): boolean {
  return (
    isDuplicateKeyError(error) &&
    String((error as Error).message).includes('uk_inbox_consumer_event')
  );
}
