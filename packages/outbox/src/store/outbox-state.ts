import { affectedRows, Statement } from '@outbox-inbox/database';
import type { DataSource } from 'typeorm';
import { DeadRowFilter } from './dead-row-filter';
import { OutboxLease, OutboxQuery, OutboxSql } from './sql/outbox-sql';
import { outboxSqlOf } from './sql/outbox-sql-of';

/** Whatever runs a statement: the DataSource, or a transaction's EntityManager. */
export interface SqlRunner {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

const LAST_ERROR_MAX = 1000;

/**
 * Every state change of `t_outbox` after its insert (OutboxWriter), in one place: the claim's
 * lease, the outcomes of a send, hand-backs, the operators' requeue and retention. The claimer,
 * the finalizer and the operations call these; each answers how many rows it changed. The
 * statements are those of the DataSource's engine (OutboxSql).
 *
 * `next_retry_at` is when a NEW row is due, a SENDING row's lease expiry, and the time of a
 * SENT or DEAD row's outcome (see idx_status_retry). A statement given a lease `token` changes
 * only rows still leased under it: a relay whose lease was taken over changes nothing.
 */
export class OutboxState {
  private readonly sql: OutboxSql;

  /** On `dataSource`'s engine (its options are read; it need not be initialized yet). */
  constructor(dataSource: Pick<DataSource, 'options'>) {
    this.sql = outboxSqlOf(dataSource);
  }

  /**
   * NEW (or expired SENDING) rows → SENDING, leased to `owner` under `token` for `leaseMs`: a
   * statement (answering how many rows it changed), for the claimer to send with its COMMIT.
   * `ids` must not be empty.
   */
  lease(ids: string[], lease: OutboxLease): Statement<number> {
    return { ...this.sql.lease(ids, lease), read: affectedRows };
  }

  /**
   * Rows back to NEW, unsent, due after `delayMs`, keeping their retry count: rows a claim
   * holds back behind an earlier version (no `token`: the claim's transaction has them
   * locked), or rows a relay hands back under its lease `token`.
   */
  backToNew(db: SqlRunner, ids: string[], delayMs: number, token?: string): Promise<number> {
    return this.write(db, ids, () => this.sql.backToNew(ids, delayMs, token));
  }

  /** Shutdown: every row still SENDING under one of `tokens` goes back to NEW, due now. */
  releaseLeases(db: SqlRunner, tokens: string[]): Promise<number> {
    return this.write(db, tokens, () => this.sql.releaseLeases(tokens));
  }

  /** Extends the lease of rows still SENDING under `token` to `leaseMs` from now. */
  extendLease(db: SqlRunner, ids: string[], token: string, leaseMs: number): Promise<number> {
    return this.write(db, ids, () => this.sql.extendLease(ids, token, leaseMs));
  }

  markSent(db: SqlRunner, ids: string[], token: string): Promise<number> {
    return this.write(db, ids, () => this.sql.markSent(ids, token));
  }

  /** A failed attempt to try again: NEW after `delayMs`, one more in retry_count. */
  markRetry(
    db: SqlRunner,
    ids: string[],
    token: string,
    reason: string,
    delayMs: number,
  ): Promise<number> {
    return this.write(db, ids, () => this.sql.markRetry(ids, token, clip(reason), delayMs));
  }

  /** DEAD with `reason`; `attempted` counts this as a failed attempt in retry_count. */
  markDead(
    db: SqlRunner,
    ids: string[],
    token: string,
    reason: string,
    attempted: boolean,
  ): Promise<number> {
    return this.write(db, ids, () => this.sql.markDead(ids, token, clip(reason), attempted));
  }

  /**
   * DEAD rows `filter` selects → NEW, due now, with a fresh retry count. Run it in the
   * transaction that locked them.
   */
  requeueDead(db: SqlRunner, filter: DeadRowFilter): Promise<number> {
    return this.run(db, this.sql.requeueDead(filter));
  }

  /** The aggregate's NEW rows that never failed become due now (held back behind a DEAD one). */
  dueNow(db: SqlRunner, aggregateType: string, aggregateId: string): Promise<number> {
    return this.run(db, this.sql.dueNow(aggregateType, aggregateId));
  }

  /** Deletes up to `chunkSize` SENT rows sent more than `olderThanMs` ago, oldest first. */
  deleteSent(db: SqlRunner, olderThanMs: number, chunkSize: number): Promise<number> {
    return this.run(db, this.sql.deleteSent(olderThanMs, chunkSize));
  }

  /** Sends the statement only when it names rows (MySQL refuses an empty `IN ()`). */
  private async write(
    db: SqlRunner,
    rows: string[],
    statement: () => OutboxQuery,
  ): Promise<number> {
    return rows.length === 0 ? 0 : this.run(db, statement());
  }

  private async run(db: SqlRunner, { sql, params }: OutboxQuery): Promise<number> {
    // Every statement here is an UPDATE or a DELETE: mysql2 answers its count in a header,
    // TypeORM's PostgreSQL runner as [rows, count]; affectedRows reads both.
    return affectedRows(await db.query(sql, params));
  }
}

function clip(reason: string): string {
  return reason.length > LAST_ERROR_MAX ? `${reason.slice(0, LAST_ERROR_MAX - 1)}…` : reason;
}
