import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { ServiceEnv } from '@app/config';

/** Environment of the coupon-provider (no Kafka); every variable is documented in the README. */
export class CouponProviderConfig extends ServiceEnv {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  COUPON_PROVIDER_PORT = 3003;

  /**
   * `true` mounts the fault API (GET/PUT /faults, operator token) that tests and the demo use to
   * drop replies or fail grants. Off by default: a deployed provider has no fault switch.
   */
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  COUPON_FAULTS_ENABLED = false;
}
