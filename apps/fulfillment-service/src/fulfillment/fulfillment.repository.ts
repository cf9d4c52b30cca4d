import { Injectable } from '@nestjs/common';
import { affectedRows, compareAndSet, runStatements, Statement } from '@outbox-inbox/database';
import { EntityManager } from 'typeorm';
import { FulfillmentState, FulfillmentStatus } from './domain/fulfillment';

/** A new fulfillment row, written when the first event about its order arrives. */
export interface NewFulfillment {
  orderId: string;
  userId: string;
  status: Extract<FulfillmentStatus, 'INIT' | 'CANCELLED'>;
  grantKey: string;
  couponValue: number;
  currency: string;
}

interface FulfillmentRow {
  id: string;
  order_id: string;
  user_id: string;
  status: FulfillmentStatus;
  version: number;
  event_version: number;
  grant_key: string;
  coupon_value: string;
  currency: string;
  coupon_code: string | null;
  attempts: number;
  next_attempt_at: Date | null;
  last_error: string | null;
}

/** Thrown when a compare-and-set update found another version: the transaction is retried. */
export class StaleFulfillmentError extends Error {
  readonly code = 'STALE_FULFILLMENT' as const;
}

const COLUMNS = `id, order_id, user_id, status, version, event_version, grant_key, coupon_value,
  currency, coupon_code, attempts, next_attempt_at, last_error`;
const COUPON = 'COUPON';

/** t_fulfillment, in the caller's transaction. */
@Injectable()
export class FulfillmentRepository {
  /** Inserts the order's fulfillment unless it exists; either way it then exists. */
  async insertIfAbsent(manager: EntityManager, f: NewFulfillment, now: Date): Promise<void> {
    const created = await this.insertRow(manager, f, now);
    if (created) await runStatements(manager, [created]);
  }

  /**
   * `insertIfAbsent`, then `lockByOrder`: the new row's first transition travels with the
   * locking read, one round trip less.
   */
  async insertIfAbsentAndLock(
    manager: EntityManager,
    f: NewFulfillment,
    now: Date,
  ): Promise<FulfillmentState | undefined> {
    const created = await this.insertRow(manager, f, now);
    const lock = lockByOrderStatement(f.orderId);
    if (!created) return (await runStatements(manager, [lock]))[0];
    return (await runStatements(manager, [created, lock]))[1];
  }

  /** Inserts the row unless it exists; returns its first transition's statement if it was new. */
  private async insertRow(
    manager: EntityManager,
    f: NewFulfillment,
    now: Date,
  ): Promise<Statement | undefined> {
    const inserted: { insertId: number | string } = await manager.query(
      `INSERT INTO t_fulfillment (order_id, type, user_id, status, version, event_version, grant_key,
         coupon_value, currency, attempts, created_at, updated_at)
       VALUES (?, ?, ?, ?, 1, 0, ?, ?, ?, 0, ?, ?)
       ON DUPLICATE KEY UPDATE id = id`,
      [f.orderId, COUPON, f.userId, f.status, f.grantKey, f.couponValue, f.currency, now, now],
    );
    // mysql2 sets CLIENT_FOUND_ROWS, so a duplicate also reports 1 affected row; only an
    // insert reports the new id.
    if (affectedRows(inserted) !== 1 || !(Number(inserted.insertId) > 0)) return undefined;
    return transitionStatement(String(inserted.insertId), 1, f.status, 0, null, now);
  }

  /** Reads and row-locks the order's fulfillment until the transaction ends. */
  async lockByOrder(
    manager: EntityManager,
    orderId: string,
  ): Promise<FulfillmentState | undefined> {
    return (await runStatements(manager, [lockByOrderStatement(orderId)]))[0];
  }

  /** Locks the FAILED fulfillment due soonest, skipping rows other workers hold. */
  async lockNextDue(manager: EntityManager, now: Date): Promise<FulfillmentState | undefined> {
    const rows: FulfillmentRow[] = await manager.query(
      `SELECT ${COLUMNS} FROM t_fulfillment
       WHERE status = 'FAILED' AND next_attempt_at IS NOT NULL AND next_attempt_at <= ?
       ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [now],
    );
    return rows[0] && toState(rows[0]);
  }

  /** Writes `next` if the row still has `previous.version` (compare-and-set). */
  async save(
    manager: EntityManager,
    previous: FulfillmentState,
    next: FulfillmentState,
    now: Date,
  ): Promise<void> {
    await runStatements(manager, this.saveStatements(previous, next, now));
  }

  /**
   * `save`'s compare-and-set and its transition, to send in one round trip (with an outbox
   * event, say): when the row changed under us, the compare-and-set's `read` throws
   * StaleFulfillmentError, and the caller's transaction rolls back what went with it.
   */
  saveStatements(
    previous: FulfillmentState,
    next: FulfillmentState,
    now: Date,
  ): Statement<unknown>[] {
    return [
      compareAndSet({
        table: 't_fulfillment',
        set: {
          status: next.status,
          version: next.version,
          event_version: next.eventVersion,
          coupon_code: next.couponCode,
          attempts: next.attempts,
          next_attempt_at: next.nextAttemptAt,
          last_error: next.lastError,
          updated_at: now,
        },
        expected: { id: previous.id, version: previous.version },
        lost: () =>
          new StaleFulfillmentError(
            `fulfillment ${previous.id} changed under version ${previous.version}`,
          ),
      }),
      transitionStatement(
        previous.id,
        next.version,
        next.status,
        next.attempts,
        next.lastError,
        now,
      ),
    ];
  }

  async findByOrder(
    manager: EntityManager,
    orderId: string,
  ): Promise<FulfillmentState | undefined> {
    const rows: FulfillmentRow[] = await manager.query(
      `SELECT ${COLUMNS} FROM t_fulfillment WHERE order_id = ? AND type = ?`,
      [orderId, COUPON],
    );
    return rows[0] && toState(rows[0]);
  }

  /** FAILED fulfillments with no next attempt: they need a person. */
  async listStuck(manager: EntityManager, limit: number): Promise<FulfillmentState[]> {
    const rows: FulfillmentRow[] = await manager.query(
      `SELECT ${COLUMNS} FROM t_fulfillment WHERE status = 'FAILED' AND next_attempt_at IS NULL
       ORDER BY id LIMIT ?`,
      [limit],
    );
    return rows.map(toState);
  }

  async countByStatus(manager: EntityManager): Promise<Record<string, number>> {
    const rows: Array<{ status: string; stuck: string; n: string }> = await manager.query(
      `SELECT status, (status = 'FAILED' AND next_attempt_at IS NULL) AS stuck, COUNT(*) AS n
       FROM t_fulfillment GROUP BY status, stuck`,
    );
    const counts: Record<string, number> = {
      INIT: 0,
      DONE: 0,
      FAILED: 0,
      CANCELLED: 0,
      REVERTED: 0,
      stuck: 0,
    };
    for (const row of rows) {
      counts[row.status] = (counts[row.status] ?? 0) + Number(row.n);
      if (Number(row.stuck) === 1) counts.stuck += Number(row.n);
    }
    return counts;
  }
}

function toState(row: FulfillmentRow): FulfillmentState {
  return {
    id: String(row.id),
    orderId: row.order_id,
    userId: row.user_id,
    status: row.status,
    version: Number(row.version),
    eventVersion: Number(row.event_version),
    grantKey: row.grant_key,
    couponValue: Number(row.coupon_value),
    currency: row.currency,
    couponCode: row.coupon_code,
    attempts: Number(row.attempts),
    nextAttemptAt: row.next_attempt_at ? new Date(row.next_attempt_at) : null,
    lastError: row.last_error,
  };
}

/** Reads and row-locks the order's fulfillment until the transaction ends. */
function lockByOrderStatement(orderId: string): Statement<FulfillmentState | undefined> {
  return {
    sql: `SELECT ${COLUMNS} FROM t_fulfillment WHERE order_id = ? AND type = ? FOR UPDATE`,
    params: [orderId, COUPON],
    read: (rows) => {
      const [row] = rows as FulfillmentRow[];
      return row && toState(row);
    },
  };
}

/** Appends the written state to t_fulfillment_transition, in the same transaction. */
function transitionStatement(
  fulfillmentId: string,
  version: number,
  status: FulfillmentStatus,
  attempts: number,
  lastError: string | null,
  at: Date,
): Statement {
  return {
    sql: `INSERT INTO t_fulfillment_transition
       (fulfillment_id, version, status, attempts, last_error, occurred_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
    params: [fulfillmentId, version, status, attempts, lastError?.slice(0, 500) ?? null, at],
    read: () => undefined,
  };
}
