import type { SqlEngine, Statement } from '@outbox-inbox/database';
import type { DeadRowFilter } from '../dead-row-filter';
import type { OutboxStatus } from '../outbox-status';

/** One statement on t_outbox and its values, in the placeholders of its engine. */
export interface OutboxQuery {
  sql: string;
  params: unknown[];
}

/** An event row as the writer inserts it; payload and headers are JSON text, kept as given. */
export interface NewOutboxRow {
  aggregateType: string;
  aggregateId: string;
  aggregateVersion: number;
  eventType: string;
  eventKey: string;
  eventId: string;
  payload: string;
  headers: string;
}

/** A claim's lease: who holds the rows, under which token, for how long. */
export interface OutboxLease {
  owner: string;
  token: string;
  leaseMs: number;
}

/** Unsent rows of some aggregates below a version, outside a claim (the ordering check). */
export interface EarlierUnsentQuery {
  aggregateTypes: string[];
  aggregateIds: string[];
  belowVersion: number;
  statuses: OutboxStatus[];
  excludingIds: string[];
}

/**
 * Every statement the outbox sends to `t_outbox`, written once per engine
 * (mysql-outbox-sql.ts, postgres-outbox-sql.ts): the one home of the table's SQL. Its callers
 * (OutboxWriter, OutboxClaimer, OutboxState, OutboxOperations) hold the logic and run the
 * statements; an implementation only writes them, in its engine's placeholders and functions,
 * with the database's clock for every time (so relays on different hosts agree on leases).
 *
 * Reads answer rows with the columns named in each method's comment. Writes answer what the
 * engine's dialect counts as affected rows (`SqlDialect.affectedRows`).
 */
export interface OutboxSql {
  readonly engine: SqlEngine;

  /**
   * The writer's insert, a no-op when the event key or the aggregate version is taken (no
   * failed statement in the caller's transaction). Its `read` answers whether a row was added.
   */
  insert(row: NewOutboxRow): Statement<boolean>;
  /** `event_key`, `payload` of the row holding an aggregate version. */
  atVersion(aggregateType: string, aggregateId: string, aggregateVersion: number): OutboxQuery;

  /** Due NEW rows (the claim's columns), oldest due first, locked, skipping locked rows. */
  claimDueNew(limit: number): OutboxQuery;
  /**
   * Due NEW rows (as `claimDueNew`, up to `limit`, skipping locked rows) leased under `lease` in
   * the same statement, which then commits alone: the claim's columns, `due_at` (when the row
   * was due, the claim's order with `id`: the rows come unordered) and `earlier`, the JSON list
   * (`aggregate_version`, `status`, `due_in_ms`, as `earlierUnsent`) of the rows of a version-2+
   * row's aggregate below its version, in `statuses`, that were not due in this claim; null
   * for a version 1 or when there are none. Present exactly where the engine's dialect claims
   * in 'one-statement' (PostgreSQL); where an UPDATE cannot answer its rows (MySQL, MariaDB:
   * 'transaction'), the claimer locks, reads and leases in a transaction instead.
   */
  claimAndLeaseDueNew?(limit: number, lease: OutboxLease, statuses: OutboxStatus[]): OutboxQuery;
  /** SENDING rows whose lease expired, like `claimDueNew`. */
  claimExpired(limit: number): OutboxQuery;
  /** `aggregate_type`, `aggregate_id`, `aggregate_version`, `status`, `due_in_ms` (NEW; else 0). */
  earlierUnsent(query: EarlierUnsentQuery): OutboxQuery;

  /** Rows → SENDING, leased; next_retry_at and lease_until = now + leaseMs. */
  lease(ids: string[], lease: OutboxLease): OutboxQuery;
  /** Rows → NEW, unleased, due after `delayMs`; only those leased under `token` when given. */
  backToNew(ids: string[], delayMs: number, token?: string): OutboxQuery;
  /** Every row SENDING under one of `tokens` → NEW, due now. */
  releaseLeases(tokens: string[]): OutboxQuery;
  /** The lease of rows still SENDING under `token` ends `leaseMs` from now. */
  extendLease(ids: string[], token: string, leaseMs: number): OutboxQuery;
  /** Rows leased under `token` → SENT now. */
  markSent(ids: string[], token: string): OutboxQuery;
  /** Rows leased under `token` → NEW after `delayMs`, one more failed attempt, `reason`. */
  markRetry(ids: string[], token: string, reason: string, delayMs: number): OutboxQuery;
  /** Rows leased under `token` → DEAD with `reason`; `attempted` adds a failed attempt. */
  markDead(ids: string[], token: string, reason: string, attempted: boolean): OutboxQuery;

  /** Distinct `aggregate_type`, `aggregate_id` of the DEAD rows `filter` selects, rows locked. */
  lockDeadAggregates(filter: DeadRowFilter): OutboxQuery;
  /** The DEAD rows `filter` selects → NEW, due now, retry count 0. */
  requeueDead(filter: DeadRowFilter): OutboxQuery;
  /** The aggregate's NEW rows that never failed are due now. */
  dueNow(aggregateType: string, aggregateId: string): OutboxQuery;
  /** Deletes up to `chunkSize` SENT rows sent more than `olderThanMs` ago, oldest first. */
  deleteSent(olderThanMs: number, chunkSize: number): OutboxQuery;

  /** `status`, `n` for NEW, SENDING and DEAD. */
  countByStatus(): OutboxQuery;
  /** `age_ms` of the oldest NEW or SENDING row (null when none). */
  oldestUnsentAge(): OutboxQuery;
  /** `n`: NEW rows that failed at least once. */
  retryingRows(): OutboxQuery;
  /** `n`: aggregates with a DEAD row and a later NEW or SENDING one. */
  aggregatesBlockedByDead(): OutboxQuery;
  /** DEAD rows after `afterId` that `match` takes, by id: operators' columns, `payload_preview`. */
  listDead(limit: number, afterId: string, match: DeadRowFilter): OutboxQuery;
  /** Every row of one aggregate by version, without payload. */
  rowsOfAggregate(aggregateType: string, aggregateId: string): OutboxQuery;
}
