import { affectedRows } from '@outbox-inbox/database';
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
  /** True when this request stored the key; false when it existed (and its counter went up). */
  claimedNow: boolean;
  paramsHash: string;
  couponCode: string;
}

/** t_coupon_idempotency and t_coupon, always through the caller's transaction. */
@Injectable()
export class CouponsRepository {
  /**
   * Stores the key with `couponCode` if it is new, or counts one more request for it. The
   * upsert waits for a concurrent transaction that holds the same key, so exactly one request
   * per key ever sees `claimedNow`, without relying on REPEATABLE READ.
   */
  async claimKey(
    manager: EntityManager,
    key: string,
    paramsHash: string,
    couponCode: string,
    now: Date,
  ): Promise<KeyClaim> {
    const result: unknown = await manager.query(
      `INSERT INTO t_coupon_idempotency
         (idempotency_key, params_hash, coupon_code, requests, first_request_at, last_request_at)
       VALUES (?, ?, ?, 1, ?, ?)
       ON DUPLICATE KEY UPDATE requests = requests + 1, last_request_at = ?`,
      [key, paramsHash, couponCode, now, now, now],
    );
    if (affectedRows(result) === 1) return { claimedNow: true, paramsHash, couponCode };
    const rows: Array<{ params_hash: string; coupon_code: string }> = await manager.query(
      'SELECT params_hash, coupon_code FROM t_coupon_idempotency WHERE idempotency_key = ?',
      [key],
    );
    return { claimedNow: false, paramsHash: rows[0].params_hash, couponCode: rows[0].coupon_code };
  }

  async insertCoupon(manager: EntityManager, coupon: CouponView): Promise<void> {
    await manager.query(
      `INSERT INTO t_coupon (coupon_code, idempotency_key, user_id, order_id, value, currency,
         status, granted_at, revoked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
      [
        coupon.couponCode,
        coupon.idempotencyKey,
        coupon.userId,
        coupon.orderId,
        coupon.value,
        coupon.currency,
        coupon.status,
        new Date(coupon.grantedAt),
      ],
    );
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
