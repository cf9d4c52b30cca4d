import { createEnvelope, EventRegistry, EventValidationError } from '@outbox-inbox/messaging';
import { ParcelShippedV1 } from '@outbox-inbox/test-kit';
import { decodeEvent, isNewerSchema, isUnknownType } from './decode-event';
import { InboxError } from './inbox.errors';

const registry = new EventRegistry([ParcelShippedV1]);
const paid = createEnvelope(ParcelShippedV1, {
  aggregateId: 'p-1',
  aggregateVersion: 3,
  payload: {
    parcelId: 'p-1',
    carrier: 'c-1',
    weightGrams: 1200,
    declaredValue: 1000,
    currency: 'CNY',
    service: 'STANDARD',
    shippedAt: new Date().toISOString(),
  },
});

describe('decodeEvent', () => {
  it('returns the validated envelope of a registered event', () => {
    expect(decodeEvent(Buffer.from(JSON.stringify(paid)), registry)).toEqual(paid);
  });

  it('rejects a body that is not JSON', () => {
    expect(() => decodeEvent(Buffer.from('{oops'), registry)).toThrow(
      expect.objectContaining({ code: 'NOT_JSON' }) as InboxError,
    );
  });

  it('reads fields a newer producer added to the envelope and the payload, and keeps them', () => {
    const newer = { ...paid, tenant: 't-9', payload: { ...paid.payload, channel: 'app' } };
    expect(decodeEvent(JSON.stringify(newer), registry)).toEqual(newer);
  });

  it('reads the envelope of an event type the registry does not know, payload unchecked', () => {
    const unknown = {
      ...paid,
      eventType: 'ParcelLost',
      eventKey: 'ParcelLost:p-1:3',
      payload: { carrier: 'x' },
    };
    const decoded = decodeEvent(JSON.stringify(unknown), registry);
    expect(decoded).toEqual(unknown);
    expect(isUnknownType(decoded, registry)).toBe(true);
  });

  it('reads the envelope of a newer schema version of a known type, to hold it', () => {
    const v2 = { ...paid, schemaVersion: 2, payload: { total: { amount: 1, currency: 'CNY' } } };
    const decoded = decodeEvent(JSON.stringify(v2), registry);
    expect(isNewerSchema(decoded, registry)).toBe(true);
    expect(isNewerSchema(paid, registry)).toBe(false);
  });

  it('still rejects an envelope whose own fields are invalid, known type or not', () => {
    const unknown = { ...paid, eventType: 'ParcelLost', eventKey: 'wrong' };
    expect(() => decodeEvent(JSON.stringify(unknown), registry)).toThrow(EventValidationError);
    const badVersion = { ...paid, schemaVersion: 2, aggregateVersion: 0 };
    expect(() => decodeEvent(JSON.stringify(badVersion), registry)).toThrow(EventValidationError);
  });

  it('rejects an invalid payload', () => {
    const invalid = { ...paid, payload: { ...paid.payload, declaredValue: -1 } };
    expect(() => decodeEvent(JSON.stringify(invalid), registry)).toThrow(EventValidationError);
  });
});
