import { runStatements } from '@outbox-inbox/database';
import { EventEnvelope } from '@outbox-inbox/messaging';
import { EntityManager } from 'typeorm';
import { InboxQuery } from '../inbox-query';
import { DeliveryPosition } from '../inbox.options';
import {
  Admission,
  AggregateRef,
  GateRow,
  InboxStore,
  ParkedEvent,
  StoredOutcome,
} from './inbox-store.port';
import { FastAdmission, InboxApplySql } from './sql/inbox-apply-sql';

/**
 * The InboxStore of a SQL database: one consumer's inbox (t_inbox), version gate
 * (t_inbox_version) and parking lot (t_inbox_parked), written by its engine's InboxApplySql.
 * Every method takes the caller's transaction manager: the inbox row, the gate and the
 * handler's effect commit or roll back together.
 */
export class SqlInboxStore implements InboxStore {
  constructor(
    private readonly consumer: string,
    private readonly sql: InboxApplySql,
  ) {}

  /**
   * Takes an event in: its inbox row, then the gate's fast path. 'duplicate' when this consumer
   * already took the event in (nothing changed), 'advanced' when the aggregate moved to this
   * version (version 1: its gate row was created), 'arrived' when the row is in and the gate
   * needs the full path (something is parked, the version is not the next one, or a version 1
   * of an aggregate already seen).
   */
  async admit(
    manager: EntityManager,
    envelope: EventEnvelope,
    outcome: StoredOutcome,
    fastPath = true,
  ): Promise<Admission> {
    const statements = fastPath
      ? this.sql.fastAdmission(this.consumer, envelope, outcome)
      : [this.sql.arrival(this.consumer, envelope, outcome)];
    let answer: FastAdmission;
    try {
      // In one query where the DataSource's dialect allows it (a MySQL pool with
      // `multipleStatements`; the server stops at the first that fails), else one query each.
      answer = (await runStatements<FastAdmission[]>(manager, statements)).at(-1)!;
    } catch (error) {
      if (this.sql.isArrivalConflict(error)) return 'duplicate';
      throw error;
    }
    if (answer !== 'placeholder') return answer;
    const { aggregateType, aggregateId } = envelope;
    await run(manager, this.sql.dropPlaceholderGate!(this.consumer, aggregateType, aggregateId));
    return 'arrived';
  }

  /**
   * Counts redeliveries on their inbox rows (`duplicate_count`, `last_duplicate_at`), in the
   * caller's transaction, so absorbed duplicates stay visible after a restart. A key listed n
   * times counts n.
   */
  async recordDuplicates(manager: EntityManager, eventKeys: string[]): Promise<void> {
    for (const statement of this.sql.recordDuplicates(this.consumer, eventKeys)) {
      await run(manager, statement);
    }
  }

  async setOutcome(
    manager: EntityManager,
    eventKey: string,
    outcome: StoredOutcome,
  ): Promise<void> {
    await run(manager, this.sql.setOutcome(this.consumer, eventKey, outcome));
  }

  /** The gate row, locked until commit; undefined when the aggregate was never seen. */
  async lockVersion(
    manager: EntityManager,
    aggregateType: string,
    aggregateId: string,
  ): Promise<GateRow | undefined> {
    const rows = (await run(
      manager,
      this.sql.lockVersion(this.consumer, aggregateType, aggregateId),
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
    await run(
      manager,
      firstRow
        ? this.sql.insertVersion(this.consumer, aggregateType, aggregateId, row)
        : this.sql.updateVersion(this.consumer, aggregateType, aggregateId, row),
    );
  }

  async park(
    manager: EntityManager,
    envelope: EventEnvelope,
    alreadyHandled: boolean,
    position: DeliveryPosition,
  ): Promise<void> {
    await run(manager, this.sql.park(this.consumer, envelope, alreadyHandled, position));
  }

  /**
   * Aggregates whose parked event is the next version (held back before: a newer schema this
   * consumer could not read then, or a gap skipped since), oldest first.
   */
  async readyAggregates(manager: EntityManager, limit: number): Promise<AggregateRef[]> {
    const rows = (await run(manager, this.sql.readyAggregates(this.consumer, limit))) as Array<{
      aggregate_type: string;
      aggregate_id: string;
    }>;
    return rows.map((r) => ({ aggregateType: r.aggregate_type, aggregateId: r.aggregate_id }));
  }

  /**
   * Removes and returns the parked event of `version`, if there is one and `keep` does not
   * hold it back (an event this consumer cannot apply yet stays parked): read and locked
   * first, since `keep` decides in between.
   */
  async takeParked(
    manager: EntityManager,
    aggregateType: string,
    aggregateId: string,
    version: number,
    keep: (envelope: EventEnvelope) => boolean = () => false,
  ): Promise<ParkedEvent | undefined> {
    const rows = (await run(
      manager,
      this.sql.lockParked(this.consumer, aggregateType, aggregateId, version),
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
    // Text columns arrive as a string; a JSON column on MySQL would arrive parsed.
    const envelope = (
      typeof row.envelope === 'string' ? JSON.parse(row.envelope) : row.envelope
    ) as EventEnvelope;
    if (keep(envelope)) return undefined;
    await run(manager, this.sql.deleteParked(row.id));
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

/** Runs one statement in the caller's transaction; answers what the driver answered. */
function run(manager: EntityManager, { sql, params }: InboxQuery): Promise<unknown> {
  return manager.query(sql, params);
}
