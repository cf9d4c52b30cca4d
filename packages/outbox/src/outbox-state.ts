import { affectedRows } from '@outbox-inbox/database';

/** Whatever runs a statement: the DataSource, or a transaction's EntityManager. */
export interface SqlRunner {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

const LAST_ERROR_MAX = 1000;

/** Microseconds for `INTERVAL ? MICROSECOND` (MariaDB and MySQL both take them). */
const us = (ms: number) => ms * 1000;

/**
 * Every state change of `t_outbox` after its insert (OutboxWriter), in one place: the claim's
 * lease, the outcomes of a send, hand-backs, the operators' requeue and retention. The claimer,
 * the finalizer and the operations call these; each answers how many rows it changed.
 *
 * `next_retry_at` is when a NEW row is due, a SENDING row's lease expiry, and the time of a
 * SENT or DEAD row's outcome (see idx_status_retry). A statement given a lease `token` changes
 * only rows still leased under it: a relay whose lease was taken over changes nothing.
 */
export const OutboxState = {
  /** NEW (or expired SENDING) rows → SENDING, leased to `owner` under `token` for `leaseMs`. */
  async lease(
    db: SqlRunner,
    ids: string[],
    lease: { owner: string; token: string; leaseMs: number },
  ): Promise<number> {
    if (ids.length === 0) return 0;
    return write(
      db,
      `UPDATE t_outbox SET status = 'SENDING', lease_owner = ?, lease_token = ?,
         lease_until = DATE_ADD(UTC_TIMESTAMP(3), INTERVAL ? MICROSECOND),
         next_retry_at = DATE_ADD(UTC_TIMESTAMP(3), INTERVAL ? MICROSECOND),
         updated_at = UTC_TIMESTAMP(3)
       WHERE id IN (?)`,
      [lease.owner, lease.token, us(lease.leaseMs), us(lease.leaseMs), ids],
    );
  },

  /**
   * Rows back to NEW, unsent, due after `delayMs`, keeping their retry count: rows a claim
   * holds back behind an earlier version (no `token`: the claim's transaction has them
   * locked), or rows a relay hands back under its lease `token`.
   */
  async backToNew(db: SqlRunner, ids: string[], delayMs: number, token?: string): Promise<number> {
    if (ids.length === 0) return 0;
    return write(
      db,
      `UPDATE t_outbox SET status = 'NEW', lease_owner = NULL, lease_token = NULL,
         lease_until = NULL, updated_at = UTC_TIMESTAMP(3),
         next_retry_at = DATE_ADD(UTC_TIMESTAMP(3), INTERVAL ? MICROSECOND)
       WHERE id IN (?)${token === undefined ? '' : ' AND lease_token = ?'}`,
      [us(delayMs), ids, ...(token === undefined ? [] : [token])],
    );
  },

  /** Shutdown: every row still SENDING under one of `tokens` goes back to NEW, due now. */
  async releaseLeases(db: SqlRunner, tokens: string[]): Promise<number> {
    if (tokens.length === 0) return 0;
    return write(
      db,
      `UPDATE t_outbox SET status = 'NEW', lease_owner = NULL, lease_token = NULL,
         lease_until = NULL, updated_at = UTC_TIMESTAMP(3), next_retry_at = UTC_TIMESTAMP(3)
       WHERE status = 'SENDING' AND lease_token IN (?)`,
      [tokens],
    );
  },

  /** Extends the lease of rows still SENDING under `token` to `leaseMs` from now. */
  async extendLease(db: SqlRunner, ids: string[], token: string, leaseMs: number): Promise<number> {
    if (ids.length === 0) return 0;
    return write(
      db,
      `UPDATE t_outbox SET lease_until = DATE_ADD(UTC_TIMESTAMP(3), INTERVAL ? MICROSECOND),
         next_retry_at = DATE_ADD(UTC_TIMESTAMP(3), INTERVAL ? MICROSECOND)
       WHERE id IN (?) AND lease_token = ? AND status = 'SENDING'`,
      [us(leaseMs), us(leaseMs), ids, token],
    );
  },

  async markSent(db: SqlRunner, ids: string[], token: string): Promise<number> {
    if (ids.length === 0) return 0;
    return write(
      db,
      `UPDATE t_outbox SET status = 'SENT', sent_at = UTC_TIMESTAMP(3),
         next_retry_at = UTC_TIMESTAMP(3), updated_at = UTC_TIMESTAMP(3), lease_token = NULL,
         lease_until = NULL, last_error = NULL
       WHERE id IN (?) AND lease_token = ?`,
      [ids, token],
    );
  },

  /** A failed attempt to try again: NEW after `delayMs`, one more in retry_count. */
  async markRetry(
    db: SqlRunner,
    ids: string[],
    token: string,
    reason: string,
    delayMs: number,
  ): Promise<number> {
    if (ids.length === 0) return 0;
    return write(
      db,
      `UPDATE t_outbox SET status = 'NEW', retry_count = retry_count + 1, last_error = ?,
         next_retry_at = DATE_ADD(UTC_TIMESTAMP(3), INTERVAL ? MICROSECOND),
         updated_at = UTC_TIMESTAMP(3), lease_token = NULL, lease_until = NULL
       WHERE id IN (?) AND lease_token = ?`,
      [clip(reason), us(delayMs), ids, token],
    );
  },

  /** DEAD with `reason`; `attempted` counts this as a failed attempt in retry_count. */
  async markDead(
    db: SqlRunner,
    ids: string[],
    token: string,
    reason: string,
    attempted: boolean,
  ): Promise<number> {
    if (ids.length === 0) return 0;
    return write(
      db,
      `UPDATE t_outbox SET status = 'DEAD', last_error = ?,
         retry_count = retry_count + ${attempted ? 1 : 0}, next_retry_at = UTC_TIMESTAMP(3),
         updated_at = UTC_TIMESTAMP(3), lease_token = NULL, lease_until = NULL
       WHERE id IN (?) AND lease_token = ?`,
      [clip(reason), ids, token],
    );
  },

  /**
   * DEAD rows matching `condition` (`AND …` over t_outbox columns, with `params`) → NEW, due
   * now, with a fresh retry count. Run it in the transaction that locked them.
   */
  async requeueDead(db: SqlRunner, condition: string, params: unknown[]): Promise<number> {
    return write(
      db,
      `UPDATE t_outbox SET status = 'NEW', retry_count = 0, next_retry_at = UTC_TIMESTAMP(3),
         updated_at = UTC_TIMESTAMP(3), lease_owner = NULL, lease_token = NULL, lease_until = NULL
       WHERE status = 'DEAD' ${condition}`,
      params,
    );
  },

  /** The aggregate's NEW rows that never failed become due now (held back behind a DEAD one). */
  async dueNow(db: SqlRunner, aggregateType: string, aggregateId: string): Promise<number> {
    return write(
      db,
      `UPDATE t_outbox SET next_retry_at = UTC_TIMESTAMP(3)
       WHERE aggregate_type = ? AND aggregate_id = ? AND status = 'NEW' AND retry_count = 0`,
      [aggregateType, aggregateId],
    );
  },

  /**
   * Deletes up to `chunkSize` SENT rows sent more than `olderThanMs` ago, oldest first, on a
   * range of idx_status_retry (a SENT row's next_retry_at is its send time, or an earlier due
   * time for rows sent before SingleStatusIndex1765000000000, hence the `sent_at` check).
   */
  async deleteSent(db: SqlRunner, olderThanMs: number, chunkSize: number): Promise<number> {
    return write(
      db,
      `DELETE FROM t_outbox
       WHERE status = 'SENT'
         AND next_retry_at < DATE_SUB(UTC_TIMESTAMP(3), INTERVAL ? MICROSECOND)
         AND sent_at < DATE_SUB(UTC_TIMESTAMP(3), INTERVAL ? MICROSECOND)
       ORDER BY next_retry_at LIMIT ?`,
      [us(olderThanMs), us(olderThanMs), chunkSize],
    );
  },
};

async function write(db: SqlRunner, sql: string, params: unknown[]): Promise<number> {
  return affectedRows(await db.query(sql, params));
}

function clip(reason: string): string {
  return reason.length > LAST_ERROR_MAX ? `${reason.slice(0, LAST_ERROR_MAX - 1)}…` : reason;
}
