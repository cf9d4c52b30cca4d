import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { CommonEnv } from '@app/config';

/** Environment of the fulfillment-service; every variable is documented in the README. */
export class FulfillmentServiceConfig extends CommonEnv {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  FULFILLMENT_SERVICE_PORT = 3001;
}
