import { EventEnvelope } from '@outbox-inbox/messaging';
import type { EntityManager } from 'typeorm';
import { DeliveryPosition } from '../inbox.options';

/** What became of an event in the inbox; stored in t_inbox.outcome. */
export type StoredOutcome = 'applied' | 'ignored' | 'stale' | 'parked';

/**
 * How `admit` took an event in: 'duplicate' (this consumer has it already; nothing changed),
 * 'advanced' (recorded, and the aggregate's gate moved to its version in the same step), or
 * 'arrived' (recorded; the gate is left to the full path).
 */
export type Admission = 'duplicate' | 'advanced' | 'arrived';

/** The version gate's row of one aggregate. */
export interface GateRow {
  /** 0 while nothing was applied yet (only events were parked). */
  lastVersion: number;
  parkedCount: number;
}

/** An aggregate's key in the gate. */
export interface AggregateRef {
  aggregateType: string;
  aggregateId: string;
}

/** The gate row of an aggregate, keyed `type|id` (the keys of `lockVersions`' answer). */
export const aggregateKey = (a: AggregateRef): string => `${a.aggregateType}|${a.aggregateId}`;

/** An event parked until the versions before it arrive. */
export interface ParkedEvent {
  envelope: EventEnvelope;
  /** Its handler ran when it arrived (an ungated type): draining only moves the gate past it. */
  alreadyHandled: boolean;
  position: DeliveryPosition;
}

/**
 * What the apply step needs of the database, for one consumer: its inbox rows (an event key is
 * recorded once per consumer), the version gate of each aggregate, and the parking lot. Every
 * method works in the caller's transaction `tx`, so the inbox row, the gate and the handler's
 * effect commit or roll back together. SqlInboxStore on MySQL/MariaDB and PostgreSQL; the
 * in-memory twin of `@outbox-inbox/inbox/testing`; runInboxStoreContract says what each must do.
 */
export interface InboxStore<Tx = EntityManager> {
  /**
   * Records the event's inbox row with `outcome`, once per consumer: 'duplicate' when the row
   * is there already, and `tx` stays usable. With `fastPath` (default true), the same step
   * moves the gate when that needs no decision: version 1 of an aggregate without a gate row
   * creates it, the version after the last one moves it when nothing is parked ('advanced').
   * Anything else is 'arrived' and leaves the gate as it was.
   */
  admit(
    tx: Tx,
    envelope: EventEnvelope,
    outcome: StoredOutcome,
    fastPath?: boolean,
  ): Promise<Admission>;
  /** Counts redeliveries on their inbox rows; a key listed n times counts n. */
  recordDuplicates(tx: Tx, eventKeys: string[]): Promise<void>;
  setOutcome(tx: Tx, eventKey: string, outcome: StoredOutcome): Promise<void>;
  /** The aggregate's gate row, locked until `tx` ends; undefined when it has none. */
  lockVersion(tx: Tx, aggregateType: string, aggregateId: string): Promise<GateRow | undefined>;
  /**
   * Writes the gate row: inserts it when `firstRow` (rejecting when another transaction
   * inserted it meanwhile: the caller's transaction is retried and then sees it), else updates.
   */
  saveVersion(
    tx: Tx,
    aggregateType: string,
    aggregateId: string,
    row: GateRow,
    firstRow: boolean,
  ): Promise<void>;
  park(
    tx: Tx,
    envelope: EventEnvelope,
    alreadyHandled: boolean,
    position: DeliveryPosition,
  ): Promise<void>;
  /**
   * Aggregates whose parked event is the version after their gate's last one (held back for a
   * newer schema, or behind a gap skipped since), oldest parked first, at most `limit`.
   */
  readyAggregates(tx: Tx, limit: number): Promise<AggregateRef[]>;
  /**
   * Removes and answers the parked event of `version`, if there is one and `keep` does not hold
   * it back (an event kept stays parked, and the answer is undefined).
   */
  takeParked(
    tx: Tx,
    aggregateType: string,
    aggregateId: string,
    version: number,
    keep?: (envelope: EventEnvelope) => boolean,
  ): Promise<ParkedEvent | undefined>;
}

/**
 * Multi-row forms of InboxStore's statements, for batched mode: a batch costs a handful of
 * statements plus its handlers' own, instead of three per event.
 */
export interface InboxBatchStore<Tx = EntityManager> {
  /** The event keys of `keys` this consumer has already. */
  existingKeys(tx: Tx, keys: string[]): Promise<Set<string>>;
  /**
   * Records inbox rows, all or none: a key recorded meanwhile (by another instance, during a
   * rebalance) rejects, and the batch is settled message by message instead.
   */
  recordArrivals(
    tx: Tx,
    arrivals: Array<{ envelope: EventEnvelope; outcome: StoredOutcome }>,
  ): Promise<void>;
  /** The gate rows of `aggregates` that exist, by aggregateKey, locked until `tx` ends. */
  lockVersions(tx: Tx, aggregates: AggregateRef[]): Promise<Map<string, GateRow>>;
  /**
   * Writes gate rows: `isNew` ones are inserted (rejecting, all or none, when one exists
   * already), the others updated.
   */
  saveVersions(tx: Tx, rows: Array<AggregateRef & GateRow & { isNew: boolean }>): Promise<void>;
}
