import { OnApplicationShutdown } from '@nestjs/common';
import { CouponProviderClient, GrantResult, RevokeResult } from '@app/coupon-client';
import {
  CouponGateway,
  CouponGrantRequest,
  CouponGrantResult,
  CouponRevokeResult,
} from './coupon-gateway.port';

/** The CouponGateway over the coupon provider's HTTP API; closes its connections at shutdown. */
export class CouponProviderGateway implements CouponGateway, OnApplicationShutdown {
  constructor(
    private readonly client: CouponProviderClient,
    private readonly timeoutMs: number,
  ) {}

  onApplicationShutdown(): void {
    this.client.close();
  }

  async grant(request: CouponGrantRequest): Promise<CouponGrantResult> {
    return toGrantResult(await this.client.grant(request, { timeoutMs: this.timeoutMs }));
  }

  async revoke(couponCode: string): Promise<CouponRevokeResult> {
    return toRevokeResult(await this.client.revoke(couponCode, { timeoutMs: this.timeoutMs }));
  }
}

function toGrantResult(result: GrantResult): CouponGrantResult {
  switch (result.outcome) {
    case 'granted':
      return { kind: 'granted', couponCode: result.coupon.couponCode };
    case 'conflict':
      return { kind: 'rejected', reason: `conflict: ${result.message}` };
    case 'rejected':
      return { kind: 'rejected', reason: `rejected (${result.status}): ${result.message}` };
    case 'unavailable':
      return { kind: 'failed', reason: `unavailable (${result.status}): ${result.message}` };
    case 'unknown':
      return { kind: 'failed', reason: `unknown outcome (${result.cause}): ${result.message}` };
  }
}

function toRevokeResult(result: RevokeResult): CouponRevokeResult {
  switch (result.outcome) {
    case 'revoked':
      return { kind: 'revoked' };
    // A coupon the provider does not know cannot be in anyone's hands: nothing to take back.
    case 'not-found':
      return { kind: 'revoked' };
    case 'unavailable':
      return { kind: 'failed', reason: `unavailable (${result.status}): ${result.message}` };
    case 'unknown':
      return { kind: 'failed', reason: `unknown outcome (${result.cause}): ${result.message}` };
  }
}
