import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, IsUrl, Max, Min, MinLength } from 'class-validator';
import { CommonEnv } from '@app/config';

/** Environment of the order-service; every variable is documented in the README. */
export class OrderServiceConfig extends CommonEnv {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  ORDER_SERVICE_PORT = 3000;

  /** Shared secret of the payment provider's callback HMAC (or PAY_CALLBACK_SECRET_FILE). Never logged or echoed. */
  @IsString()
  @MinLength(16)
  PAY_CALLBACK_SECRET!: string;

  /**
   * The secret PAY_CALLBACK_SECRET replaces, during a rotation: callbacks signed with either are
   * accepted until this one is removed. Never logged or echoed.
   */
  @IsOptional()
  @IsString()
  @MinLength(16)
  PAY_CALLBACK_SECRET_PREVIOUS?: string;

  /** Base URL of the fulfillment-service, read by GET /orders/:id/timeline and /ops. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  FULFILLMENT_SERVICE_URL = 'http://127.0.0.1:3001';

  /** Base URL of the accounting-service, read by GET /orders/:id/timeline and /ops. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  ACCOUNTING_SERVICE_URL = 'http://127.0.0.1:3002';

  /** Base URL of the coupon provider, read by GET /orders/:id/timeline. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  COUPON_PROVIDER_URL = 'http://127.0.0.1:3003';

  /** How long the timeline and /ops wait for another service before showing it unavailable. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60_000)
  PEER_TIMEOUT_MS = 2_000;
}
