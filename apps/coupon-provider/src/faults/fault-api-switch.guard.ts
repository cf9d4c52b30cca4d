import { CanActivate, Injectable, NotFoundException } from '@nestjs/common';
import { CouponProviderConfig } from '../coupon-provider.config';

/**
 * The fault API answers only where COUPON_FAULTS_ENABLED=true; elsewhere it is a 404, as if it
 * were not there (after the operator token check, which every operator route passes first).
 * A guard rather than a controller left out of the module, so that the switch is read from the
 * configuration at DI time like every other setting.
 */
@Injectable()
export class FaultApiSwitch implements CanActivate {
  constructor(private readonly config: CouponProviderConfig) {}

  canActivate(): boolean {
    if (!this.config.COUPON_FAULTS_ENABLED) throw new NotFoundException();
    return true;
  }
}
