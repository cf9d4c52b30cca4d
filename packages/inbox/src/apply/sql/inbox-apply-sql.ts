import type { SqlEngine, Statement } from '@outbox-inbox/database';
import type { EventEnvelope } from '@outbox-inbox/messaging';
import type { InboxQuery } from '../../inbox-query';
import type { DeliveryPosition } from '../../inbox.options';
import type { Admission, AggregateRef, GateRow, StoredOutcome } from '../inbox-store.port';

/**
 * What a statement of `admit` tells (its `read`): an Admission, or 'placeholder' where the
 * inbox row went in and the gate did not move, but the statement left a gate row of its own
 * that `dropPlaceholderGate` deletes again.
 */
export type FastAdmission = Admission | 'placeholder';

/** An event to record in the inbox, with its outcome (batched mode). */
export interface Arrival {
  envelope: EventEnvelope;
  outcome: StoredOutcome;
}

/** A gate row to write (batched mode). */
export type GateWrite = AggregateRef & GateRow;

/**
 * Every statement the apply step sends to one consumer's inbox (t_inbox), version gate
 * (t_inbox_version) and parking lot (t_inbox_parked), written once per engine
 * (mysql-inbox-apply-sql.ts, postgres-inbox-apply-sql.ts): SqlInboxStore and
 * SqlInboxBatchStore hold the logic and run the statements in the caller's transaction; an
 * implementation only writes them, in its engine's placeholders and functions, with its
 * engine's clock for the times it writes.
 *
 * Reads answer rows with the columns named in each method's comment.
 */
export interface InboxApplySql {
  readonly engine: SqlEngine;

  /**
   * The event's inbox row. Its `read` answers 'arrived', or 'duplicate' where the engine
   * answers a row this consumer has already with no row (PostgreSQL); where it fails the
   * statement instead (MySQL), `isArrivalConflict` tells that failure.
   */
  arrival(consumer: string, envelope: EventEnvelope, outcome: StoredOutcome): Statement<Admission>;
  /**
   * The inbox row and the gate's fast path, to run in order, stopping at the first that fails;
   * the last one's `read` answers. The fast path changes one gate row or none, and only when
   * the inbox row went in: version 1 creates the aggregate's gate row if it has none; a later
   * version moves `version - 1` to `version` when nothing of the aggregate is parked.
   */
  fastAdmission(
    consumer: string,
    envelope: EventEnvelope,
    outcome: StoredOutcome,
  ): Statement<FastAdmission>[];
  /** True when `error` is the inbox row refused because this consumer has the event. */
  isArrivalConflict(error: unknown): boolean;
  /** Deletes the aggregate's gate row; undefined where no 'placeholder' is answered (MySQL). */
  dropPlaceholderGate?(consumer: string, aggregateType: string, aggregateId: string): InboxQuery;

  /** Count redeliveries on their inbox rows: a key listed n times adds n. None for no keys. */
  recordDuplicates(consumer: string, eventKeys: string[]): InboxQuery[];
  setOutcome(consumer: string, eventKey: string, outcome: StoredOutcome): InboxQuery;

  /** `last_version`, `parked_count` of the aggregate's gate row, locked until commit. */
  lockVersion(consumer: string, aggregateType: string, aggregateId: string): InboxQuery;
  /** A first gate row; fails on its key when the aggregate has one already. */
  insertVersion(
    consumer: string,
    aggregateType: string,
    aggregateId: string,
    row: GateRow,
  ): InboxQuery;
  updateVersion(
    consumer: string,
    aggregateType: string,
    aggregateId: string,
    row: GateRow,
  ): InboxQuery;

  park(
    consumer: string,
    envelope: EventEnvelope,
    alreadyHandled: boolean,
    position: DeliveryPosition,
  ): InboxQuery;
  /**
   * `aggregate_type`, `aggregate_id` of the aggregates whose parked event is the version after
   * their gate's last one, oldest parked first, at most `limit`.
   */
  readyAggregates(consumer: string, limit: number): InboxQuery;
  /**
   * `id`, `envelope`, `already_handled`, `source_topic`, `source_partition`, `source_offset`
   * of the aggregate's parked event of `version`, locked until commit.
   */
  lockParked(
    consumer: string,
    aggregateType: string,
    aggregateId: string,
    version: number,
  ): InboxQuery;
  deleteParked(id: string): InboxQuery;

  /** `event_key` of the keys of `keys` this consumer has already. */
  existingKeys(consumer: string, keys: string[]): InboxQuery;
  /** The inbox rows, all or none: one this consumer has already fails the statement. */
  recordArrivals(consumer: string, arrivals: Arrival[]): InboxQuery;
  /**
   * `aggregate_type`, `aggregate_id`, `last_version`, `parked_count` of the gate rows of
   * `aggregates` that exist, locked until commit.
   */
  lockVersions(consumer: string, aggregates: AggregateRef[]): InboxQuery;
  /**
   * Writes gate rows: `fresh` ones plainly inserted, so that a row another transaction
   * inserted meanwhile fails the statement (all or none) instead of being overwritten; `known`
   * ones, locked by `lockVersions`, written over. None for an empty list.
   */
  saveVersions(consumer: string, fresh: GateWrite[], known: GateWrite[]): InboxQuery[];
}
