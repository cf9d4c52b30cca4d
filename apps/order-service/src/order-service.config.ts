import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { CommonEnv } from '@app/config';

/** Environment of the order-service; every variable is documented in the README. */
export class OrderServiceConfig extends CommonEnv {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  ORDER_SERVICE_PORT = 3000;
}
