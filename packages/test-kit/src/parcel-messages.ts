import {
  createEnvelope,
  envelopeHeaders,
  EventEnvelope,
  EventRegistry,
} from '@outbox-inbox/messaging';
import { Message } from 'kafkajs';
import {
  ParcelLostV1,
  ParcelRegisteredV1,
  ParcelRegisteredV1Payload,
  ParcelReturnedV1,
  ParcelShippedV1,
} from './sample-events';

// The Parcel test catalogue's registry and Kafka messages, for the generic libraries' tests
// (outbox, inbox), as libs/trading-test-kit's trading-messages.ts is for the chain's.

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
