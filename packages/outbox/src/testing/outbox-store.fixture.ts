import type { ClaimOptions } from '../relay/outbox-claimer';
import { DeadRowFilter, PruneOptions } from '../operations/outbox-operations';
import { OutboxRelayOptions } from '../relay/outbox-relay.options';
import { OutboxClaims, OutboxOutcomes } from '../store/outbox-store.port';

/** An event the suite adds, as the writer would: its key is `${aggregateType}Noted:${id}:${version}`. */
export interface OutboxTestEvent {
  aggregateType: string;
  aggregateId: string;
  aggregateVersion: number;
}

/** A row as the suite checks it. */
export interface OutboxRowState {
  id: string;
  eventKey: string;
  aggregateId: string;
  aggregateVersion: number;
  status: 'NEW' | 'SENDING' | 'SENT' | 'DEAD';
  retryCount: number;
}

/** What the claim reads of the relay options. */
export type OutboxClaimTuning = ClaimOptions;

/** What recording outcomes reads of the relay options. */
export type OutboxOutcomeTuning = Pick<OutboxRelayOptions, 'maxAttempts' | 'backoff'>;

/** One empty outbox store, for one case. */
export interface OutboxStoreUnderTest {
  /** Adds events as the writer does, each in a transaction of its own; a known event key is a no-op. */
  add(events: OutboxTestEvent[]): Promise<void>;
  /** A claimer on this store, leasing for `owner`. */
  claims(tuning: OutboxClaimTuning, owner: string): OutboxClaims;
  outcomes(tuning: OutboxOutcomeTuning): OutboxOutcomes;
  /** The operators' requeue of DEAD rows (OutboxOperations.requeueDead). */
  requeueDead(filter: DeadRowFilter): Promise<number>;
  /** Retention (OutboxOperations.pruneSent). */
  pruneSent(options: PruneOptions): Promise<number>;
  /** Every row, by id. */
  rows(): Promise<OutboxRowState[]>;
  close(): Promise<void>;
}

/**
 * Cases that need the fixture to reach into the store's backend; an in-memory twin has none.
 * 'lost-connection': the server cuts the store's connections. 'row-locks': another transaction
 * holds rows locked, as a claim in progress does. The real faults, each classified transient
 * and retried with nothing lost or doubled: 'deadlock' (two writers' transactions cross),
 * 'lock-timeout' (an outcome write waits for a locked row past the store's bound; needs
 * `lockRows`), 'network-cut' (the network to the server is cut for a minute, while events are
 * written and relayed).
 */
export type OutboxStoreFeature =
  'lost-connection' | 'row-locks' | 'deadlock' | 'lock-timeout' | 'network-cut';

/** How the suite reaches an implementation of the outbox store (claims, outcomes, operations). */
export interface OutboxStoreFixture {
  open(): Promise<OutboxStoreUnderTest>;
  /** Feature 'lost-connection': every open connection of `store` is cut by the server. */
  cutConnections?(store: OutboxStoreUnderTest): Promise<void>;
  /**
   * Feature 'row-locks': locks the `count` rows of `store` with the lowest ids in a transaction
   * of its own, until the returned function ends it. The store should bound its own lock waits
   * (a few seconds), so that a claim which waits for these rows fails instead of hanging.
   */
  lockRows?(store: OutboxStoreUnderTest, count: number): Promise<() => Promise<void>>;
  /**
   * Feature 'deadlock': runs `work` in one transaction as an adopter's command does, through
   * the package's transaction runner (runTransaction: retried whole on a transient error,
   * rejected on any other); `add` writes an event as the writer does, in that transaction.
   */
  addInTransaction?(
    store: OutboxStoreUnderTest,
    work: (add: (event: OutboxTestEvent) => Promise<void>) => Promise<void>,
  ): Promise<void>;
  /**
   * Feature 'network-cut': cuts the network between `store` and its server (open connections
   * dropped, new ones refused) until the returned function restores it.
   */
  cutNetwork?(store: OutboxStoreUnderTest): Promise<() => Promise<void>>;
}
