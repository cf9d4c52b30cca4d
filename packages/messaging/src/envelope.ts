import 'reflect-metadata';
import {
  IsDefined,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { IsStrictIso8601 } from './iso-timestamp';

/** W3C trace context, carried from the outbox row through Kafka headers to every consumer. */
export class TraceContext {
  /** `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>` */
  @Matches(/^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/)
  traceparent!: string;

  @IsOptional()
  @IsString()
  @Length(0, 512)
  tracestate?: string;
}

/**
 * The one envelope every event travels in, in the outbox row and as the Kafka message value.
 * Ids are strings wherever they leave the process.
 */
export class EventEnvelope<P = unknown> {
  @IsUUID()
  eventId!: string;

  @Matches(/^[A-Z][A-Za-z0-9]{1,63}$/)
  eventType!: string;

  /** `eventType:aggregateId:aggregateVersion`, the idempotency key of the event. */
  @IsString()
  @Length(5, 190)
  eventKey!: string;

  @Matches(/^[A-Z][A-Za-z0-9]{1,31}$/)
  aggregateType!: string;

  @IsString()
  @Length(1, 64)
  @Matches(/^[A-Za-z0-9_-]+$/)
  aggregateId!: string;

  /** 1 for the aggregate's first event, +1 for each next one. */
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  aggregateVersion!: number;

  @IsStrictIso8601()
  occurredAt!: string;

  @IsInt()
  @Min(1)
  schemaVersion!: number;

  /** Follows one business flow (an order) across services. */
  @IsOptional()
  @IsString()
  @Length(1, 128)
  correlationId?: string;

  /** The eventId (or request id) that caused this event. */
  @IsOptional()
  @IsString()
  @Length(1, 128)
  causationId?: string;

  /** Checked against TraceContext by validateEnvelope, as the payload is against its class. */
  @IsOptional()
  @IsObject()
  trace?: TraceContext;

  @IsDefined()
  @IsObject()
  payload!: P;
}

/** Builds the event key from its parts: `eventType:aggregateId:aggregateVersion`. */
export function eventKeyOf(
  eventType: string,
  aggregateId: string,
  aggregateVersion: number,
): string {
  return `${eventType}:${aggregateId}:${aggregateVersion}`;
}
