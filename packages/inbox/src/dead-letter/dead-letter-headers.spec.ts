import { DeadLetterReason, deadLetterHeaders, withoutInboxHeaders } from './dead-letter-headers';

const reason: DeadLetterReason = {
  error: 'boom',
  errorCode: 'NOT_JSON',
  attempts: 1,
  consumer: 'fulfillment',
  topic: 'shop.parcel.events',
  partition: 2,
  offset: '41',
  failedAt: new Date('2026-01-01T00:00:00.000Z'),
};

describe('deadLetterHeaders', () => {
  it('keeps the original headers and adds where and why the message failed', () => {
    const headers = deadLetterHeaders({ 'event-type': 'ParcelShipped' }, reason);
    expect(headers).toEqual({
      'event-type': 'ParcelShipped',
      'inbox-error': 'boom',
      'inbox-error-code': 'NOT_JSON',
      'inbox-attempts': '1',
      'inbox-consumer': 'fulfillment',
      'inbox-source-topic': 'shop.parcel.events',
      'inbox-source-partition': '2',
      'inbox-source-offset': '41',
      'inbox-failed-at': '2026-01-01T00:00:00.000Z',
    });
  });

  it('replaces the failure headers of a message that failed before', () => {
    const once = deadLetterHeaders({ 'event-type': 'ParcelShipped' }, reason);
    const twice = deadLetterHeaders(once, {
      ...reason,
      attempts: 8,
      errorCode: 'RETRIES_EXHAUSTED',
    });
    expect(twice['inbox-attempts']).toBe('8');
    expect(withoutInboxHeaders(twice)).toEqual({ 'event-type': 'ParcelShipped' });
  });
});
