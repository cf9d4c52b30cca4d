import { createEnvelope, validateEnvelope } from './create-envelope';
import { EventValidationError } from './validation';
import { OrderPaidV1 } from './order/order-paid.v1';

const payload = {
  orderId: '42',
  userId: 'u-1',
  payOrderId: 'pay-1',
  notifyId: 'n-1',
  amount: 1999,
  currency: 'EUR',
  paidAt: '2026-12-01T10:00:00.000Z',
};

describe('createEnvelope', () => {
  it('derives the event key, ids and metadata from the definition', () => {
    const envelope = createEnvelope(OrderPaidV1, {
      aggregateId: '42',
      aggregateVersion: 3,
      payload,
      correlationId: 'order-42',
    });
    expect(envelope).toMatchObject({
      eventType: 'OrderPaid',
      eventKey: 'OrderPaid:42:3',
      aggregateType: 'Order',
      aggregateVersion: 3,
      schemaVersion: 1,
      correlationId: 'order-42',
      payload,
    });
    expect(envelope.eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(JSON.stringify(envelope))).toEqual(envelope);
  });

  it('rejects an invalid payload with the failing fields, unknown fields included', () => {
    const bad = { ...payload, amount: 12.5, currency: 'euro', extra: true };
    let error: unknown;
    try {
      createEnvelope(OrderPaidV1, { aggregateId: '42', aggregateVersion: 1, payload: bad });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EventValidationError);
    expect((error as EventValidationError).fieldErrors.map((f) => f.path).sort()).toEqual([
      'payload.amount',
      'payload.currency',
      'payload.extra',
    ]);
  });

  it('rejects an envelope whose key does not match its type, aggregate and version', () => {
    const envelope = createEnvelope(OrderPaidV1, {
      aggregateId: '42',
      aggregateVersion: 1,
      payload,
    });
    expect(() =>
      validateEnvelope(OrderPaidV1, { ...envelope, eventKey: 'OrderPaid:42:2' }),
    ).toThrow(/eventKey/);
    expect(() => validateEnvelope(OrderPaidV1, { ...envelope, aggregateVersion: 0 })).toThrow(
      EventValidationError,
    );
  });

  it('checks the trace context field by field, unknown fields included', () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const envelope = createEnvelope(OrderPaidV1, {
      aggregateId: '42',
      aggregateVersion: 1,
      payload,
      trace: { traceparent },
    });
    const paths = (trace: unknown) => {
      try {
        validateEnvelope(OrderPaidV1, { ...envelope, trace });
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
    const envelope = createEnvelope(OrderPaidV1, {
      aggregateId: '42',
      aggregateVersion: 1,
      payload,
    });
    const paths = (json: string) => {
      try {
        validateEnvelope(OrderPaidV1, JSON.parse(json));
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
