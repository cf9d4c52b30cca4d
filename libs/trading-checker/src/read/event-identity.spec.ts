import { EventHeader } from '@outbox-inbox/messaging';
import { eventIdentity } from './event-identity';

const envelope = {
  eventId: '7f0c2a52-8a43-4a39-9a0e-2f1f3b1b9c11',
  eventType: 'InvoiceIssued',
  eventKey: 'InvoiceIssued:inv-1:1',
  aggregateType: 'Invoice',
  aggregateId: 'inv-1',
  aggregateVersion: 1,
  schemaVersion: 1,
  occurredAt: '2026-12-05T12:00:00.000Z',
  payload: {},
};
const value = (v: unknown) => Buffer.from(JSON.stringify(v));

describe('eventIdentity: which event a message is, as the consumers read it', () => {
  it('takes the identity from the envelope of a message sent with no headers', () => {
    expect(eventIdentity(value(envelope), {})).toEqual({
      [EventHeader.eventType]: 'InvoiceIssued',
      [EventHeader.eventKey]: 'InvoiceIssued:inv-1:1',
      [EventHeader.aggregateType]: 'Invoice',
      [EventHeader.aggregateId]: 'inv-1',
      [EventHeader.aggregateVersion]: '1',
    });
  });

  it('lets the envelope win over headers that say otherwise, and keeps the other headers', () => {
    const headers = { [EventHeader.eventKey]: 'Other:1:1', traceparent: 't' };
    expect(eventIdentity(value(envelope), headers)).toMatchObject({
      [EventHeader.eventKey]: 'InvoiceIssued:inv-1:1',
      traceparent: 't',
    });
  });

  it('keeps the headers of a value that is not a JSON object, or lacks the fields', () => {
    const headers = { [EventHeader.eventKey]: 'A:1:1' };
    expect(eventIdentity(Buffer.from('not json'), headers)).toEqual(headers);
    expect(eventIdentity(null, headers)).toEqual(headers);
    expect(eventIdentity(value([1, 2]), headers)).toEqual(headers);
    expect(eventIdentity(value({ eventKey: 7.5, aggregateVersion: '2' }), headers)).toEqual(
      headers,
    );
  });

  it('keeps the headers of an envelope whose key is not its type, aggregate and version', () => {
    // The consumers refuse such an envelope (and dead-letter it): it identifies no event.
    const headers = { [EventHeader.eventKey]: 'OrderTeleported:p3:1' };
    const forged = { ...envelope, eventType: 'OrderTeleported', eventKey: 'OrderTeleported:p3:1' };
    expect(eventIdentity(value(forged), headers)).toEqual(headers);
  });
});
