import { createEnvelope, validateEnvelope } from './create-envelope';
import { EventValidationError } from './validation';
import { ParcelShippedV1 } from '@outbox-inbox/test-kit';

const payload = {
  parcelId: '42',
  carrier: 'c-1',
  weightGrams: 1200,
  declaredValue: 1999,
  currency: 'EUR',
  service: 'EXPRESS' as const,
  shippedAt: '2026-12-01T10:00:00.000Z',
};

describe('createEnvelope', () => {
  it('derives the event key, ids and metadata from the definition', () => {
    const envelope = createEnvelope(ParcelShippedV1, {
      aggregateId: '42',
      aggregateVersion: 3,
      payload,
      correlationId: 'parcel-42',
    });
    expect(envelope).toMatchObject({
      eventType: 'ParcelShipped',
      eventKey: 'ParcelShipped:42:3',
      aggregateType: 'Parcel',
      aggregateVersion: 3,
      schemaVersion: 1,
      correlationId: 'parcel-42',
      payload,
    });
    expect(envelope.eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(JSON.stringify(envelope))).toEqual(envelope);
  });

  it('rejects an invalid payload with the failing fields, unknown fields included', () => {
    const bad = { ...payload, declaredValue: 12.5, currency: 'euro', extra: true };
    let error: unknown;
    try {
      createEnvelope(ParcelShippedV1, { aggregateId: '42', aggregateVersion: 1, payload: bad });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EventValidationError);
    expect((error as EventValidationError).fieldErrors.map((f) => f.path).sort()).toEqual([
      'payload.currency',
      'payload.declaredValue',
      'payload.extra',
    ]);
  });

  it('rejects an envelope whose key does not match its type, aggregate and version', () => {
    const envelope = createEnvelope(ParcelShippedV1, {
      aggregateId: '42',
      aggregateVersion: 1,
      payload,
    });
    expect(() =>
      validateEnvelope(ParcelShippedV1, { ...envelope, eventKey: 'ParcelShipped:42:2' }),
    ).toThrow(/eventKey/);
    expect(() => validateEnvelope(ParcelShippedV1, { ...envelope, aggregateVersion: 0 })).toThrow(
      EventValidationError,
    );
  });

  it('checks the trace context field by field, unknown fields included', () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const envelope = createEnvelope(ParcelShippedV1, {
      aggregateId: '42',
      aggregateVersion: 1,
      payload,
      trace: { traceparent },
    });
    const paths = (trace: unknown) => {
      try {
        validateEnvelope(ParcelShippedV1, { ...envelope, trace });
        return [];
      } catch (error) {
        return (error as EventValidationError).fieldErrors.map((f) => f.path).sort();
      }
    };
    expect(paths({ traceparent })).toEqual([]);
    expect(paths(undefined)).toEqual([]);
    expect(paths({ traceparent: `${traceparent}x`, tracestate: 7, extra: 1 })).toEqual([
      'trace.extra',
      'trace.traceparent',
      'trace.tracestate',
    ]);
    expect(paths('00-abc')).toEqual(['trace']);
    expect(paths([{ traceparent }])).toEqual(['trace']);
  });

  it("rejects fields named like Object.prototype's (constructor, __proto__, hasOwnProperty), with their paths", () => {
    const envelope = createEnvelope(ParcelShippedV1, {
      aggregateId: '42',
      aggregateVersion: 1,
      payload,
    });
    const paths = (json: string) => {
      try {
        validateEnvelope(ParcelShippedV1, JSON.parse(json));
        return [];
      } catch (error) {
        return (error as EventValidationError).fieldErrors.map((f) => f.path).sort();
      }
    };
    const text = JSON.stringify(envelope);
    expect(paths(text)).toEqual([]);
    for (const key of ['constructor', '__proto__', 'hasOwnProperty', 'toString']) {
      for (const value of ['null', '"x"', '{}', '1']) {
        expect(paths(text.replace('{', `{"${key}":${value},`))).toEqual([key]);
        expect(paths(text.replace('"payload":{', `"payload":{"${key}":${value},`))).toEqual([
          `payload.${key}`,
        ]);
      }
    }
  });
});
