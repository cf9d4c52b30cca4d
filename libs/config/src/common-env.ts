import 'reflect-metadata';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

/**
 * Variables every HTTP service with a database reads, Kafka or not (the coupon provider has no
 * Kafka). Services on Kafka extend CommonEnv instead.
 */
export class ServiceEnv {
  /** mysql://user:password@host:port/database: the service's own database. */
  @Matches(/^mysql:\/\/[^/]+\/[A-Za-z0-9_]{1,64}$/, {
    message: 'must be mysql://user:password@host:port/database',
  })
  DATABASE_URL!: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  DB_POOL_SIZE = 10;

  /** Address the HTTP server binds to. */
  @IsOptional()
  @IsString()
  HOST = '0.0.0.0';

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL = 'log';
}

/** Variables every service on Kafka reads. Each service's own config class extends this one. */
export class CommonEnv extends ServiceEnv {
  /** Comma-separated host:port list of Kafka bootstrap servers. */
  @Transform(({ value }) =>
    typeof value === 'string' ? value.split(',').map((s) => s.trim()) : value,
  )
  @Matches(/^[A-Za-z0-9.-]+:\d{1,5}$/, { each: true, message: 'must be host:port[,host:port…]' })
  KAFKA_BROKERS!: string[];

  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,64}$/)
  KAFKA_CLIENT_ID?: string;

  /** Prefix of every topic name; `trading.` gives trading.order.events. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9._-]{0,64}$/)
  TOPIC_PREFIX = 'trading.';

  /** Readiness fails while the oldest unsent outbox row is older than this (services with an outbox). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1_000)
  @Max(86_400_000)
  HEALTH_OUTBOX_MAX_AGE_MS = 300_000;

  /** Readiness fails while the outbox relay loop has neither gone round nor waited for this long. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1_000)
  @Max(3_600_000)
  HEALTH_RELAY_STALL_MS = 60_000;

  /** Each readiness probe (database, broker, outbox) counts as down after this long. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60_000)
  HEALTH_CHECK_TIMEOUT_MS = 2_000;
}
