import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { validatePlain } from '@outbox-inbox/messaging';
import { OutboxError } from '../outbox.errors';

/** What the relay does with the later events of an aggregate whose earlier event is DEAD. */
export type DeadEventPolicy = 'block' | 'pass';

/** Exponential backoff with jitter between publish attempts of a row. */
export class OutboxBackoffOptions {
  @IsInt() @Min(1) @Max(3_600_000) baseDelayMs!: number;
  @IsInt() @Min(1) @Max(86_400_000) maxDelayMs!: number;
}

/** How the relay claims, publishes and retries; every field has a default. */
export class OutboxRelayOptions {
  /** Rows claimed (and sent in one awaited produce request) per round, within `maxBatchBytes`. */
  @IsInt() @Min(1) @Max(5_000) batchSize!: number;
  /** How often an idle relay looks for rows written by other processes. */
  @IsInt() @Min(1) @Max(600_000) pollIntervalMs!: number;
  /** How long a claim is exclusive; a row still SENDING after this is claimed again. */
  @IsInt() @Min(50) @Max(3_600_000) leaseMs!: number;
  /** Publish attempts before a row becomes DEAD. */
  @IsInt() @Min(1) @Max(1_000) maxAttempts!: number;
  @ValidateNested() @Type(() => OutboxBackoffOptions) backoff!: OutboxBackoffOptions;
  /** 'block': a DEAD event holds back the later events of its aggregate (order first). */
  @IsIn(['block', 'pass']) deadPolicy!: DeadEventPolicy;
  /** Wait before looking again at a row held back by an earlier, still unsent version. */
  @IsInt() @Min(1) @Max(600_000) blockedRecheckMs!: number;
  /** Wait before looking again at a row held back by an earlier DEAD version. */
  @IsInt() @Min(1) @Max(86_400_000) deadBlockedRecheckMs!: number;
  /** A message (value + key + headers) larger than this is DEAD without a send. */
  @IsInt() @Min(1_000) @Max(100_000_000) maxMessageBytes!: number;
  /**
   * The most one produce request carries (values, keys and headers): a claim stops taking rows
   * at this size, so that a batch of messages that each fit never exceeds the broker's limit
   * on a record batch (Kafka's `message.max.bytes`, about 1 MB by default) and dies together.
   * A row larger than this is sent alone.
   */
  @IsInt() @Min(1_000) @Max(100_000_000) maxBatchBytes!: number;
  /** kafkajs request timeout of the producer, in ms. */
  @IsInt() @Min(100) @Max(300_000) requestTimeoutMs!: number;
  /** kafkajs retries inside one send before the relay counts a failed attempt. */
  @IsInt() @Min(1) @Max(20) producerRetries!: number;
  /** How long the set of existing topics is trusted before metadata is fetched again. */
  @IsInt() @Min(0) @Max(3_600_000) topicCacheMs!: number;
  /**
   * Connections of the relay's own pool (0: share the caller's DataSource). Its own pool keeps
   * the relay publishing when request traffic exhausts the application's pool.
   */
  @IsInt() @Min(0) @Max(20) ownConnections!: number;
  /**
   * Claims of the next batches that run while a batch is on the wire, as long as full batches
   * keep coming. Each is a database transaction of its own, and they are sent in the order they
   * were started. With a pool of its own, at most `ownConnections - 1` run at once (at least
   * one), so the outcome write always finds a connection. A claim whose lease no longer covers
   * one more send by the time its turn comes is handed back unsent.
   */
  @IsInt() @Min(1) @Max(4) claimsAhead!: number;
  /** Names this relay in lease_owner; defaults to host-pid-random. */
  @IsOptional() @IsString() @Length(1, 64) instanceId?: string;
}

/** The defaults, chosen for a service writing up to a few thousand events per second. */
export const DEFAULT_RELAY_OPTIONS: Readonly<OutboxRelayOptions> = Object.freeze({
  batchSize: 500,
  pollIntervalMs: 500,
  leaseMs: 30_000,
  maxAttempts: 20,
  backoff: Object.freeze({ baseDelayMs: 500, maxDelayMs: 300_000 }),
  deadPolicy: 'block',
  blockedRecheckMs: 50,
  deadBlockedRecheckMs: 60_000,
  maxMessageBytes: 1_000_000,
  maxBatchBytes: 900_000,
  requestTimeoutMs: 5_000,
  producerRetries: 3,
  topicCacheMs: 60_000,
  claimsAhead: 2,
  ownConnections: 3,
});

/** The longest one send can take: every kafkajs attempt timing out. */
export function worstSendTimeMs(
  options: Pick<OutboxRelayOptions, 'requestTimeoutMs' | 'producerRetries'>,
): number {
  return options.requestTimeoutMs * (options.producerRetries + 1);
}

/**
 * Fills in the defaults and validates the result; throws OutboxError(OUTBOX_INVALID_OPTIONS)
 * naming every bad field, so a relay never starts half-configured.
 */
export function resolveRelayOptions(partial: Partial<OutboxRelayOptions> = {}): OutboxRelayOptions {
  const merged = {
    ...DEFAULT_RELAY_OPTIONS,
    ...partial,
    backoff: { ...DEFAULT_RELAY_OPTIONS.backoff, ...partial.backoff },
  };
  const { value, errors } = validatePlain(OutboxRelayOptions, merged);
  if (value.backoff && value.backoff.maxDelayMs < value.backoff.baseDelayMs) {
    errors.push({ path: 'backoff.maxDelayMs', constraints: { min: 'must be >= baseDelayMs' } });
  }
  // A lease shorter than one send (all kafkajs retries included) would hand the rows to
  // another relay while the first one may still deliver them: duplicates on every slow send.
  const worstSendMs = worstSendTimeMs(value);
  if (value.leaseMs < worstSendMs) {
    errors.push({
      path: 'leaseMs',
      constraints: { min: `must be >= requestTimeoutMs * (producerRetries + 1) = ${worstSendMs}` },
    });
  }
  if (errors.length > 0) {
    const detail = errors
      .map((e) => `${e.path} (${Object.values(e.constraints).join('; ')})`)
      .join(', ');
    throw new OutboxError('OUTBOX_INVALID_OPTIONS', `invalid outbox relay options: ${detail}`);
  }
  return merged as OutboxRelayOptions;
}
