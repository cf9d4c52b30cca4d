import {
  Body,
  ConflictException,
  Controller,
  Get,
  Headers,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Res,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { PublicRoute } from '@app/observability';
import { FaultInjectionInterceptor } from '../faults/fault-injection.interceptor';
import { CouponView, GrantCouponDto, GrantStats } from './coupon.dto';
import { CouponsService } from './coupons.service';
import { DegradedRead, invalidRequest } from '@outbox-inbox/messaging/http';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,190}$/;

/** The simulated third party's coupon API (a third party's own API: no operator token). */
@ApiTags('coupons')
@PublicRoute()
@Controller('coupons')
export class CouponsHttpController {
  constructor(private readonly coupons: CouponsService) {}

  @Post('grants')
  @UseInterceptors(FaultInjectionInterceptor)
  @ApiHeader({ name: 'Idempotency-Key', required: true, description: '1 to 190 printable ASCII' })
  @ApiCreatedResponse({ type: CouponView, description: 'granted now' })
  @ApiOkResponse({ type: CouponView, description: 'the key was seen before: the same coupon' })
  @ApiConflictResponse({ description: 'the key was first used with other parameters' })
  @ApiBadRequestResponse({ description: 'invalid body or missing Idempotency-Key' })
  @ApiServiceUnavailableResponse({ description: 'injected failure: nothing was granted' })
  async grant(
    @Body() body: GrantCouponDto,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) response: { status(code: number): unknown },
  ): Promise<CouponView> {
    if (key === undefined || !IDEMPOTENCY_KEY.test(key)) {
      throw invalidRequest('Idempotency-Key is required', [
        { path: 'Idempotency-Key', constraints: { matches: 'must be 1 to 190 printable ASCII' } },
      ]);
    }
    const outcome = await this.coupons.grant(key, body);
    switch (outcome.kind) {
      case 'key-conflict':
        throw new ConflictException('Idempotency-Key was first used with other parameters');
      case 'replayed':
        response.status(200);
        return outcome.coupon;
      case 'granted':
        response.status(201);
        return outcome.coupon;
    }
  }

  @Get('grants/stats')
  @DegradedRead()
  @ApiOkResponse({ type: GrantStats })
  stats(): Promise<GrantStats> {
    return this.coupons.stats();
  }

  @Post(':code/revoke')
  @HttpCode(200)
  @UseInterceptors(FaultInjectionInterceptor)
  @ApiOkResponse({ type: CouponView, description: 'REVOKED (now or before)' })
  @ApiNotFoundResponse()
  @ApiServiceUnavailableResponse({ description: 'injected failure: nothing was revoked' })
  async revoke(@Param('code') code: string): Promise<CouponView> {
    const coupon = /^[A-Z0-9-]{1,32}$/.test(code) ? await this.coupons.revoke(code) : undefined;
    if (!coupon) throw new NotFoundException('unknown coupon');
    return coupon;
  }
}
