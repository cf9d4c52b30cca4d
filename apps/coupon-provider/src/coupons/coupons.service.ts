import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { runTransaction } from '@outbox-inbox/database';
import { DataSource } from 'typeorm';
import { CouponView, GrantCouponDto, GrantStats } from './coupon.dto';
import { CouponsRepository } from './coupons.repository';

/** Outcome of a grant request. */
export type GrantOutcome =
  | { kind: 'granted'; coupon: CouponView }
  /** The key was seen before with the same parameters: the same coupon again. */
  | { kind: 'replayed'; coupon: CouponView }
  /** The key was first used with other parameters. */
  | { kind: 'key-conflict' };

// Crockford base32: no I, L, O, U, so codes read back unambiguously.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Grants and revokes coupons; one coupon per idempotency key, for as long as the key is kept. */
@Injectable()
export class CouponsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly coupons: CouponsRepository,
  ) {}

  /**
   * Claims the key and grants in one transaction; a known key gets its coupon back. A key
   * reused with other parameters is refused and rolled back: the refusal leaves no trace (its
   * request count included).
   */
  async grant(key: string, params: GrantCouponDto): Promise<GrantOutcome> {
    const paramsHash = createHash('sha256')
      .update(JSON.stringify([params.userId, params.orderId, params.value, params.currency]))
      .digest('hex');
    return runTransaction(this.dataSource, async (manager): Promise<GrantOutcome> => {
      const now = new Date();
      const coupon: CouponView = {
        couponCode: newCouponCode(),
        idempotencyKey: key,
        ...params,
        status: 'GRANTED',
        grantedAt: now.toISOString(),
        revokedAt: null,
      };
      const claim = await this.coupons.claimKey(manager, paramsHash, coupon, now);
      if (claim.claimedNow) return { kind: 'granted', coupon };
      if (claim.paramsHash !== paramsHash) throw new KeyConflict();
      const first = await this.coupons.findCoupon(manager, claim.couponCode);
      if (!first) throw new Error(`coupon ${claim.couponCode} of key ${key} is missing`);
      return { kind: 'replayed', coupon: first };
    }).catch((error: unknown) => {
      if (error instanceof KeyConflict) return { kind: 'key-conflict' } as const;
      throw error;
    });
  }

  /** Revokes the coupon (again: no change); undefined when the code is unknown. */
  revoke(code: string): Promise<CouponView | undefined> {
    return runTransaction(this.dataSource, async (manager) => {
      await this.coupons.revoke(manager, code, new Date());
      return this.coupons.findCoupon(manager, code);
    });
  }

  stats(): Promise<GrantStats> {
    return this.coupons.stats(this.dataSource.manager);
  }
}

/** Thrown inside the grant's transaction to roll back the key's request count. */
class KeyConflict extends Error {}

function newCouponCode(): string {
  const bytes = randomBytes(12);
  return `CPN-${[...bytes].map((b) => ALPHABET[b % 32]).join('')}`;
}
