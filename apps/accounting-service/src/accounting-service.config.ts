import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { CommonEnv } from '@app/config';

/** Environment of the accounting-service; every variable is documented in the README. */
export class AccountingServiceConfig extends CommonEnv {
  /** It consumes from Kafka, whether or not its relay runs here. */
  override needsKafka(): boolean {
    return true;
  }

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  ACCOUNTING_SERVICE_PORT = 3002;
}
