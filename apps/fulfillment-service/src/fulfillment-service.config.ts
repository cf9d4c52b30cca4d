import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsUrl, Max, Min } from 'class-validator';
import { CommonEnv } from '@app/config';

/** Environment of the fulfillment-service; every variable is documented in the README. */
export class FulfillmentServiceConfig extends CommonEnv {
  /** It consumes from Kafka, whether or not its relay runs here. */
  override needsKafka(): boolean {
    return true;
  }

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  FULFILLMENT_SERVICE_PORT = 3001;

  /** Base URL of the coupon provider, e.g. http://127.0.0.1:3003 */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  COUPON_PROVIDER_URL!: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60_000)
  COUPON_PROVIDER_TIMEOUT_MS = 2_000;

  /** Coupon value in basis points of the paid amount (500 = 5 %). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10_000)
  COUPON_RATE_BPS = 500;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  FULFILLMENT_MAX_ATTEMPTS = 8;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(3_600_000)
  FULFILLMENT_RETRY_BASE_MS = 500;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(86_400_000)
  FULFILLMENT_RETRY_MAX_MS = 60_000;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(600_000)
  FULFILLMENT_RETRY_POLL_MS = 1_000;
}
