import {
  createEnvelope,
  EventValidationError,
  OrderPaidV1,
  tradingEventRegistry,
} from '@app/contracts';
import { decodeEvent } from './decode-event';
import { InboxError } from './inbox.errors';

const registry = tradingEventRegistry();
const paid = createEnvelope(OrderPaidV1, {
  aggregateId: 'o-1',
  aggregateVersion: 3,
  payload: {
    orderId: 'o-1',
    userId: 'u-1',
    payOrderId: 'p-1',
    notifyId: 'n-1',
    amount: 1000,
    currency: 'CNY',
    paidAt: new Date().toISOString(),
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

  it('rejects an event type the registry does not know', () => {
    const unknown = { ...paid, eventType: 'OrderShipped', eventKey: 'OrderShipped:o-1:3' };
    expect(() => decodeEvent(JSON.stringify(unknown), registry)).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_EVENT_TYPE' }) as InboxError,
    );
  });

  it('rejects an invalid payload', () => {
    const invalid = { ...paid, payload: { ...paid.payload, amount: -1 } };
    expect(() => decodeEvent(JSON.stringify(invalid), registry)).toThrow(EventValidationError);
  });
});
