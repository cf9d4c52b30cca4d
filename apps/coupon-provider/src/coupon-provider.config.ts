import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ServiceEnv } from '@app/config';

/** Environment of the coupon-provider (no Kafka); every variable is documented in the README. */
export class CouponProviderConfig extends ServiceEnv {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  COUPON_PROVIDER_PORT = 3003;
}
