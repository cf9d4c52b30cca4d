import { Controller, Get, NotFoundException, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { PublicRoute } from '@app/observability';
import { DataSource } from 'typeorm';
import { CouponView } from './coupon.dto';
import { CouponsRepository } from './coupons.repository';

/** Reads one coupon by its code (the order timeline shows the grant). */
@ApiTags('coupons')
@PublicRoute()
@Controller('coupons')
export class CouponLookupHttpController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly coupons: CouponsRepository,
  ) {}

  @Get(':code')
  @ApiOkResponse({ type: CouponView })
  @ApiNotFoundResponse()
  async find(@Param('code') code: string): Promise<CouponView> {
    const coupon = /^[A-Z0-9-]{1,32}$/.test(code)
      ? await this.coupons.findCoupon(this.dataSource.manager, code)
      : undefined;
    if (!coupon) throw new NotFoundException('unknown coupon');
    return coupon;
  }
}
