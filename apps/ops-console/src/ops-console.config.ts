import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsUrl, Max, Min } from 'class-validator';
import { HttpEnv } from '@app/config';

const SERVICE_URL = { require_tld: false, protocols: ['http', 'https'] };

/**
 * Environment of the ops console; every variable is documented in the README. It has no
 * database: it reads the services through their HTTP APIs, with the operator's own token.
 */
export class OpsConsoleConfig extends HttpEnv {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  OPS_CONSOLE_PORT = 3004;

  /** Base URL of the order-service: its outbox, order lists and order histories. */
  @IsOptional()
  @IsUrl(SERVICE_URL)
  ORDER_SERVICE_URL = 'http://127.0.0.1:3000';

  /** Base URL of the fulfillment-service: its outbox, inbox, fulfillments and timelines. */
  @IsOptional()
  @IsUrl(SERVICE_URL)
  FULFILLMENT_SERVICE_URL = 'http://127.0.0.1:3001';

  /** Base URL of the accounting-service: its inbox and ledger timelines. */
  @IsOptional()
  @IsUrl(SERVICE_URL)
  ACCOUNTING_SERVICE_URL = 'http://127.0.0.1:3002';

  /** Base URL of the coupon provider, read by the order timeline. */
  @IsOptional()
  @IsUrl(SERVICE_URL)
  COUPON_PROVIDER_URL = 'http://127.0.0.1:3003';

  /** How long the timeline and the home page wait for a service before showing it unavailable. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60_000)
  PEER_TIMEOUT_MS = 2_000;
}
