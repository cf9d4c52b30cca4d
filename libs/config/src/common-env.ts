import 'reflect-metadata';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { withKafkaSecurity } from './kafka-security-env';

/** One or more `name:token` pairs, comma-separated; a token of 24 or more characters. */
const NAMED_TOKENS = /^[A-Za-z0-9._-]{1,64}:[^,\s]{24,}(,[A-Za-z0-9._-]{1,64}:[^,\s]{24,})*$/;

/**
 * Variables every HTTP app of the fleet reads, with or without a database: where it listens,
 * how much it logs, and who may call its operator routes. The ops console has no database and
 * extends this one; services extend ServiceEnv.
 */
export class HttpEnv {
  /** Address the HTTP server binds to. */
  @IsOptional()
  @IsString()
  HOST = '0.0.0.0';

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL = 'log';

  /**
   * Bearer token of the operator routes (everything but /health, the customer API and signed
   * callbacks), at least 24 characters. Required unless OPS_API_INSECURE=true. A secret: never
   * logged or echoed.
   */
  @ValidateIf(
    (env: HttpEnv) =>
      (env.OPS_API_INSECURE !== true && env.OPS_API_TOKENS === undefined) ||
      env.OPS_API_TOKEN !== undefined,
  )
  @IsString({ message: 'OPS_API_TOKEN is required (or OPS_API_TOKENS, or OPS_API_INSECURE=true)' })
  @MinLength(24, { message: 'OPS_API_TOKEN must be at least 24 characters long' })
  OPS_API_TOKEN?: string;

  /**
   * Named operator tokens, `name:token,name:token`: the name is who the audit log records for
   * an action taken with that token. Names are 1-64 of `A-Za-z0-9._-`, tokens at least 24
   * characters without commas or spaces. Beside OPS_API_TOKEN, whose name is `operator`.
   * Secrets: never logged or echoed.
   */
  @IsOptional()
  @Matches(NAMED_TOKENS, {
    message:
      'OPS_API_TOKENS must be name:token[,name:token…] (names A-Za-z0-9._-, tokens at least 24 characters)',
  })
  OPS_API_TOKENS?: string;

  /** `true` opens the operator routes without a token (local experiments only; logged). */
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  OPS_API_INSECURE = false;
}

/**
 * Variables every HTTP service with a database reads, Kafka or not (the coupon provider has no
 * Kafka). Services on Kafka extend CommonEnv instead.
 */
export class ServiceEnv extends HttpEnv {
  /** mysql://user:password@host:port/database: the service's own database. */
  @Matches(/^mysql:\/\/[^/]+\/[A-Za-z0-9_]{1,64}$/, {
    message: 'must be mysql://user:password@host:port/database',
  })
  DATABASE_URL!: string;

  /**
   * The database password, when DATABASE_URL carries none (or DATABASE_PASSWORD_FILE): joined
   * into DATABASE_URL before validation (withDatabasePassword). A secret: never logged or echoed.
   */
  @IsOptional()
  @IsString()
  DATABASE_PASSWORD?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  DB_POOL_SIZE = 10;

  /**
   * innodb_lock_wait_timeout of the service's connections, in seconds (server default, 50,
   * when unset): a shorter wait turns a stuck row lock into a retried transaction sooner.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3600)
  DB_LOCK_WAIT_TIMEOUT_S?: number;
}

/**
 * Variables every service on Kafka reads, its client's SASL and TLS settings among them. Each
 * service's own config class extends this one.
 */
export class CommonEnv extends withKafkaSecurity(ServiceEnv) {
  /**
   * Comma-separated host:port list of Kafka bootstrap servers. Required where `needsKafka()`
   * says so; a writer-only process (OUTBOX_RELAY_ENABLED=false, no consumer) may leave it out.
   */
  @ValidateIf((env: CommonEnv) => env.needsKafka() || env.KAFKA_BROKERS !== undefined)
  @Transform(({ value }) =>
    typeof value === 'string' ? value.split(',').map((s) => s.trim()) : value,
  )
  @Matches(/^[A-Za-z0-9.-]+:\d{1,5}$/, { each: true, message: 'must be host:port[,host:port…]' })
  KAFKA_BROKERS?: string[];

  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,64}$/)
  KAFKA_CLIENT_ID?: string;

  /**
   * The Kafka client of the outbox relay's publisher: `kafkajs` (the default) or `confluent`
   * (@confluentinc/kafka-javascript, librdkafka: the idempotent producer, 5 requests in flight).
   */
  @IsOptional()
  @IsIn(['kafkajs', 'confluent'])
  KAFKA_CLIENT: 'kafkajs' | 'confluent' = 'kafkajs';

  /** Prefix of every topic name; `trading.` gives trading.order.events. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9._-]{0,64}$/)
  TOPIC_PREFIX = 'trading.';

  /**
   * Services that consume: the consumer group's session timeout (ms). Default kafkajs's 30000;
   * a shorter one lets the group rebalance sooner after a consumer died or lost its broker.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  KAFKA_SESSION_TIMEOUT_MS?: number;

  /** Services that consume: heartbeat interval (ms), well below the session timeout. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  KAFKA_HEARTBEAT_INTERVAL_MS?: number;

  /**
   * Services that consume: the longest a fetch waits for data (ms). Default 1000. A broker
   * answers as soon as data arrives; the librdkafka mock always waits it out, so tests and
   * benchmarks on the mock set it low.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(10)
  KAFKA_FETCH_MAX_WAIT_MS?: number;

  /**
   * Services that consume: how long an inbox row is kept to recognise a redelivery (ms).
   * Default 7 days. Keep it longer than the topics' retention plus the longest replay delay.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(60_000)
  @Max(366 * 24 * 3_600_000)
  INBOX_DEDUP_WINDOW_MS?: number;

  /**
   * Services that consume: the longest pause between retry rounds of a partition blocked by an
   * unavailable dependency (ms). Default 15000: the longest a healed database waits to be seen.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  INBOX_BLOCKED_BACKOFF_MAX_MS?: number;

  /**
   * Services that consume: a parked event older than this (ms) is an open gap in
   * /inbox/stats, /health/details and the inbox_open_gaps metric. Default 60000.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  INBOX_GAP_ALERT_MS?: number;

  /** Services with an outbox: run its relay in this process. Default true. */
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  OUTBOX_RELAY_ENABLED = true;

  /**
   * Whether this service cannot run without Kafka: by default when its outbox relay runs here.
   * A service that consumes overrides it to answer true.
   */
  needsKafka(): boolean {
    return this.OUTBOX_RELAY_ENABLED !== false;
  }

  /** Services with an outbox: how long a relay's claim is exclusive (ms). Default 30000. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(50)
  OUTBOX_LEASE_MS?: number;

  /** Services with an outbox: how often an idle relay polls for other processes' rows (ms). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  OUTBOX_POLL_INTERVAL_MS?: number;

  /** Services with an outbox: the producer's request timeout (ms); lease >= timeout x (retries + 1). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  OUTBOX_REQUEST_TIMEOUT_MS?: number;

  /** Services with an outbox: kafkajs retries inside one send. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  OUTBOX_PRODUCER_RETRIES?: number;

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
