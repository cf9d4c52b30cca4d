import {
  IsIn,
  IsInt,
  IsISO4217CurrencyCode,
  IsISO8601,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
} from 'class-validator';
import { defineEvent } from '@outbox-inbox/messaging';

/**
 * A business-free event for the generic libraries' tests (messaging, outbox, inbox). Its fields use every rule kind a payload
 * of this project uses (strings with lengths, bounded integers, ISO codes and timestamps, a
 * closed set, an optional field), so the compiled check is proven on all of them.
 */
export class ParcelShippedV1Payload {
  @IsString() @Length(1, 32) parcelId!: string;
  @IsString() @Length(1, 64) carrier!: string;
  @IsInt() @Min(1) @Max(1_000_000_000_000) weightGrams!: number;
  @IsInt() @Min(0) @Max(1_000_000_000_000) declaredValue!: number;
  @IsISO4217CurrencyCode() currency!: string;
  @IsIn(['STANDARD', 'EXPRESS']) service!: 'STANDARD' | 'EXPRESS';
  @IsOptional() @IsString() @Length(1, 256) note?: string;
  @IsISO8601({ strict: true }) shippedAt!: string;
}

export const ParcelShippedV1 = defineEvent({
  eventType: 'ParcelShipped',
  aggregateType: 'Parcel',
  schemaVersion: 1,
  payload: ParcelShippedV1Payload,
});

/**
 * The rest of the Parcel aggregate's life, for the outbox and inbox tests: registered → shipped
 * → returned, or lost. The inbox test consumers handle the first three; ParcelLost is known to
 * the registry but handled by no one.
 */
export class ParcelRegisteredV1Payload {
  @IsString() @Length(1, 32) parcelId!: string;
  @IsString() @Length(1, 64) sender!: string;
  @IsInt() @Min(0) @Max(1_000_000_000_000) declaredValue!: number;
  @IsISO4217CurrencyCode() currency!: string;
  @IsISO8601({ strict: true }) registeredAt!: string;
}

export const ParcelRegisteredV1 = defineEvent({
  eventType: 'ParcelRegistered',
  aggregateType: 'Parcel',
  schemaVersion: 1,
  payload: ParcelRegisteredV1Payload,
});

export class ParcelReturnedV1Payload {
  @IsString() @Length(1, 32) parcelId!: string;
  @IsString() @Length(1, 256) reason!: string;
  @IsISO8601({ strict: true }) returnedAt!: string;
}

export const ParcelReturnedV1 = defineEvent({
  eventType: 'ParcelReturned',
  aggregateType: 'Parcel',
  schemaVersion: 1,
  payload: ParcelReturnedV1Payload,
});

export class ParcelLostV1Payload {
  @IsString() @Length(1, 32) parcelId!: string;
  @IsString() @Length(1, 64) carrier!: string;
  @IsISO8601({ strict: true }) lostAt!: string;
}

export const ParcelLostV1 = defineEvent({
  eventType: 'ParcelLost',
  aggregateType: 'Parcel',
  schemaVersion: 1,
  payload: ParcelLostV1Payload,
});
