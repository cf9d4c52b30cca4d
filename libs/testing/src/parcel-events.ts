import {
  IsInt,
  IsISO4217CurrencyCode,
  IsISO8601,
  IsString,
  Length,
  Max,
  Min,
} from 'class-validator';
import {
  createEnvelope,
  defineEvent,
  envelopeHeaders,
  EventEnvelope,
  EventRegistry,
} from '@outbox-inbox/messaging';
import { Message } from 'kafkajs';
import { ParcelShippedV1 } from './sample-events';

/**
 * A business-free event catalogue for the generic libraries' tests (outbox, inbox): one
 * aggregate, Parcel, whose life is registered → shipped → returned, or lost. The inbox test
 * consumers handle the first three; ParcelLost is known to the registry but handled by no one.
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

/** Every event of the Parcel test catalogue. */
export const PARCEL_EVENTS = [
  ParcelRegisteredV1,
  ParcelShippedV1,
  ParcelReturnedV1,
  ParcelLostV1,
] as const;

/** A registry of every event of the Parcel test catalogue: the generic libraries' tests' registry. */
export function parcelEventRegistry(): EventRegistry {
  return new EventRegistry(PARCEL_EVENTS);
}

const at = () => new Date().toISOString();

/** ParcelRegistered, ParcelShipped, ParcelReturned or ParcelLost of `parcelId` at `version`. */
export function parcelEvent(
  type: 'registered' | 'shipped' | 'returned' | 'lost',
  parcelId: string,
  version: number,
): EventEnvelope {
  const base = { aggregateId: parcelId, aggregateVersion: version };
  switch (type) {
    case 'registered':
      return createEnvelope(ParcelRegisteredV1, { ...base, payload: parcelRegistered(parcelId) });
    case 'shipped':
      return createEnvelope(ParcelShippedV1, {
        ...base,
        payload: {
          parcelId,
          carrier: `c-${parcelId}-${version}`,
          weightGrams: 1_000,
          declaredValue: 1_000,
          currency: 'CNY',
          service: 'STANDARD',
          shippedAt: at(),
        },
      });
    case 'returned':
      return createEnvelope(ParcelReturnedV1, {
        ...base,
        payload: { parcelId, reason: 'test', returnedAt: at() },
      });
    case 'lost':
      return createEnvelope(ParcelLostV1, {
        ...base,
        payload: { parcelId, carrier: `c-${parcelId}-${version}`, lostAt: at() },
      });
  }
}

/** A ParcelRegistered payload of `parcelId`. */
export function parcelRegistered(parcelId: string): ParcelRegisteredV1Payload {
  return {
    parcelId,
    sender: 's-1',
    declaredValue: 1_000,
    currency: 'EUR',
    registeredAt: '2026-01-01T00:00:00.000Z',
  };
}

/** The Kafka message a relay would publish for `envelope` (key = aggregate id). */
export function toMessage(envelope: EventEnvelope): Message {
  return {
    key: envelope.aggregateId,
    value: JSON.stringify(envelope),
    headers: envelopeHeaders(envelope),
  };
}
