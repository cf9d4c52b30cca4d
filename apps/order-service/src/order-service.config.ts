import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
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
}
