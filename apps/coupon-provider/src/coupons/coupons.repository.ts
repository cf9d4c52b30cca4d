import { affectedRows, runStatements, Statement } from '@outbox-inbox/database';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CouponView, GrantStats } from './coupon.dto';

interface CouponRow {
  coupon_code: string;
  idempotency_key: string;
  user_id: string;
  order_id: string;
  value: string | number;
  currency: string;
  status: 'GRANTED' | 'REVOKED';
  granted_at: Date;
  revoked_at: Date | null;
}

/** What a key was first used for. */
export interface KeyClaim {
  /** True when this request stored the key and its coupon; false when the key existed (and its counter went up). */
  claimedNow: boolean;
  paramsHash: string;
  couponCode: string;
}

const COUPON_COLUMNS = `coupon_code, idempotency_key, user_id, order_id, value, currency, status,
  granted_at, revoked_at`;

/** t_coupon_idempotency and t_coupon, always through the caller's transaction. */
@Injectable()
export class CouponsRepository {
  /**
   * Stores the key and `coupon` if the key is new, or counts one more request for it, in one
   * round trip: the upsert of the key, the coupon's insert (only when the key row is the one
   * just stored: `requests = 1` with this coupon's code), and a read of the key row. The upsert
   * waits for a concurrent transaction that holds the same key, so exactly one request per key
   * ever sees `claimedNow`, without relying on REPEATABLE READ.
   */
  async claimKey(
    manager: EntityManager,
    paramsHash: string,
    coupon: CouponView,
    now: Date,
  ): Promise<KeyClaim> {
    const key = coupon.idempotencyKey;
    const upsertKey: Statement<boolean> = {
      sql: `INSERT INTO t_coupon_idempotency
         (idempotency_key, params_hash, coupon_code, requests, first_request_at, last_request_at)
       VALUES (?, ?, ?, 1, ?, ?)
       ON DUPLICATE KEY UPDATE requests = requests + 1, last_request_at = ?`,
      params: [key, paramsHash, coupon.couponCode, now, now, now],
      read: (result) => affectedRows(result) === 1,
    };
    const insertCouponIfClaimed: Statement = {
      sql: `INSERT INTO t_coupon (${COUPON_COLUMNS})
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, NULL FROM t_coupon_idempotency
        WHERE idempotency_key = ? AND coupon_code = ? AND requests = 1`,
      params: [
        coupon.couponCode,
        key,
        coupon.userId,
        coupon.orderId,
        coupon.value,
        coupon.currency,
        coupon.status,
        new Date(coupon.grantedAt),
        key,
        coupon.couponCode,
      ],
      read: () => undefined,
    };
    const readKey: Statement<{ paramsHash: string; couponCode: string }> = {
      sql: 'SELECT params_hash, coupon_code FROM t_coupon_idempotency WHERE idempotency_key = ?',
      params: [key],
      read: (rows) => {
        const [row] = rows as Array<{ params_hash: string; coupon_code: string }>;
        return { paramsHash: row.params_hash, couponCode: row.coupon_code };
      },
    };
    const [claimedNow, , stored] = await runStatements<
      [boolean, void, { paramsHash: string; couponCode: string }]
    >(manager, [upsertKey, insertCouponIfClaimed, readKey]);
    return { claimedNow, ...stored };
  }

  async findCoupon(manager: EntityManager, code: string): Promise<CouponView | undefined> {
    const rows: CouponRow[] = await manager.query('SELECT * FROM t_coupon WHERE coupon_code = ?', [
      code,
    ]);
    return rows[0] && toView(rows[0]);
  }

  /** GRANTED → REVOKED; a revoked coupon keeps its first revocation time. */
  async revoke(manager: EntityManager, code: string, now: Date): Promise<void> {
    await manager.query(
      `UPDATE t_coupon SET status = 'REVOKED', revoked_at = ?
        WHERE coupon_code = ? AND status = 'GRANTED'`,
      [now, code],
    );
  }

  async stats(manager: EntityManager): Promise<GrantStats> {
    const perKey: Array<{ idempotency_key: string; requests: string; grants: string }> =
      await manager.query(
        `SELECT i.idempotency_key, i.requests, COUNT(c.coupon_code) AS grants
           FROM t_coupon_idempotency i
           LEFT JOIN t_coupon c ON c.idempotency_key = i.idempotency_key
          GROUP BY i.idempotency_key, i.requests
          ORDER BY i.idempotency_key`,
      );
    const [totals]: Array<{ grants: string; revoked: string | null }> = await manager.query(
      `SELECT COUNT(*) AS grants, SUM(status = 'REVOKED') AS revoked FROM t_coupon`,
    );
    const keys = perKey.map((row) => ({
      idempotencyKey: row.idempotency_key,
      grants: Number(row.grants),
      requests: Number(row.requests),
    }));
    return {
      keys: keys.length,
      grants: Number(totals.grants),
      revoked: Number(totals.revoked ?? 0),
      requests: keys.reduce((sum, k) => sum + k.requests, 0),
      keysWithSeveralGrants: keys.filter((k) => k.grants > 1).length,
      perKey: keys,
    };
  }
}

function toView(row: CouponRow): CouponView {
  return {
    couponCode: row.coupon_code,
    idempotencyKey: row.idempotency_key,
    userId: row.user_id,
    orderId: row.order_id,
    value: Number(row.value),
    currency: row.currency,
    status: row.status,
    grantedAt: new Date(row.granted_at).toISOString(),
    revokedAt: row.revoked_at ? new Date(row.revoked_at).toISOString() : null,
  };
}
