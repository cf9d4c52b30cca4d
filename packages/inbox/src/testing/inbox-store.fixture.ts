import { randomUUID } from 'node:crypto';
import { EventEnvelope, eventKeyOf } from '@outbox-inbox/messaging';
import { InboxBatchStore, InboxStore, StoredOutcome } from '../apply/inbox-store.port';

/** An inbox row (t_inbox) as the suite checks it. */
export interface InboxRowState {
  consumer: string;
  eventKey: string;
  outcome: StoredOutcome;
  duplicateCount: number;
}

/** A gate row (t_inbox_version) as the suite checks it. */
export interface GateRowState {
  consumer: string;
  aggregateType: string;
  aggregateId: string;
  lastVersion: number;
  parkedCount: number;
}

/** A parked event (t_inbox_parked) as the suite checks it. */
export interface ParkedRowState {
  consumer: string;
  aggregateType: string;
  aggregateId: string;
  aggregateVersion: number;
  eventKey: string;
}

/** Every committed row of the inbox's tables, in any order (the suite sorts them). */
export interface InboxTables {
  inbox: InboxRowState[];
  gates: GateRowState[];
  parked: ParkedRowState[];
}

/** One empty inbox database, for one case. `Tx` is what its stores take as the transaction. */
export interface InboxStoreUnderTest<Tx> {
  /** The store of `consumer`'s inbox, gate and parking lot. */
  store(consumer: string): InboxStore<Tx>;
  batchStore(consumer: string): InboxBatchStore<Tx>;
  /**
   * Runs `work` in a transaction of its own: committed when `work` resolves, rolled back when
   * it rejects (and the rejection passed on). No retries: the suite sees every failure.
   */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** How many transactions wait for a lock another one holds, now (asked every 200 ms). */
  lockWaits(): Promise<number>;
  /** Every committed row. */
  tables(): Promise<InboxTables>;
  close(): Promise<void>;
}

/**
 * Cases that need the fixture to break the store's backend; an in-memory twin has none.
 * 'lost-connection': the server cuts the store's connections. The real faults, each classified
 * transient and retried whole with nothing lost or doubled: 'deadlock' (two transactions take
 * the same events in, in opposite orders), 'lock-timeout' (an admit waits for a locked gate
 * row past the store's bound), 'network-cut' (the network to the server is cut for a minute
 * while events keep coming).
 */
export type InboxStoreFeature = 'lost-connection' | 'deadlock' | 'lock-timeout' | 'network-cut';

/** How the suite reaches an implementation of the inbox store. */
export interface InboxStoreFixture<Tx> {
  open(): Promise<InboxStoreUnderTest<Tx>>;
  /** Feature 'lost-connection': every open connection of `db` is cut by the server. */
  cutConnections?(db: InboxStoreUnderTest<Tx>): Promise<void>;
  /**
   * The real faults: runs `work` in a transaction as the inbox's message runner does, through
   * the package's transaction runner (runTransaction: retried whole on a transient error,
   * rejected on any other).
   */
  retriedTransaction?<T>(db: InboxStoreUnderTest<Tx>, work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Feature 'network-cut': cuts the network between `db` and its server (open connections
   * dropped, new ones refused) until the returned function restores it.
   */
  cutNetwork?(db: InboxStoreUnderTest<Tx>): Promise<() => Promise<void>>;
}

/** The suite's events: `${aggregateType}${kind}` of one aggregate at one version. */
export function testEvent(
  aggregateId: string,
  aggregateVersion: number,
  { aggregateType = 'Parcel', kind = 'Noted' } = {},
): EventEnvelope {
  const eventType = `${aggregateType}${kind}`;
  return {
    eventId: randomUUID(),
    eventType,
    eventKey: eventKeyOf(eventType, aggregateId, aggregateVersion),
    aggregateType,
    aggregateId,
    aggregateVersion,
    occurredAt: new Date().toISOString(),
    schemaVersion: 1,
    payload: { note: `${aggregateId} v${aggregateVersion}` },
  };
}

/** `tables` in a fixed order, so that cases compare them whole. */
export function sortedTables(tables: InboxTables): InboxTables {
  const by =
    <T>(key: (row: T) => string) =>
    (a: T, b: T) =>
      key(a).localeCompare(key(b));
  const aggregate = (r: GateRowState | ParkedRowState) =>
    `${r.consumer}|${r.aggregateType}|${r.aggregateId}`;
  return {
    inbox: [...tables.inbox].sort(by((r) => `${r.consumer}|${r.eventKey}`)),
    gates: [...tables.gates].sort(by(aggregate)),
    parked: [...tables.parked].sort(
      by((r) => `${aggregate(r)}|${String(r.aggregateVersion).padStart(10, '0')}`),
    ),
  };
}
