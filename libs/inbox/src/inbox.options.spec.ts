import { resolveInboxOptions } from './inbox.options';

const base = {
  consumer: 'fulfillment',
  kafka: { brokers: ['127.0.0.1:9092'], clientId: 'fulfillment' },
  topics: ['trading.order.events'],
};

describe('resolveInboxOptions', () => {
  it('fills the defaults', () => {
    const resolved = resolveInboxOptions(base);
    expect(resolved.deadLetterTopic).toBe('fulfillment.dlq');
    expect(resolved.retryTopic).toBe('fulfillment.retry');
    expect(resolved.retry.maxAttempts).toBe(8);
    expect(resolved.registry.find('OrderPaid', 1)).toBeDefined();
  });

  it('names every bad field at once', () => {
    expect(() =>
      resolveInboxOptions({ ...base, consumer: 'bad name', topics: [], retry: { maxAttempts: 0 } }),
    ).toThrow(/consumer must.*topics must not be empty.*retry.maxAttempts/);
  });

  it('refuses a dead-letter topic that is also consumed', () => {
    expect(() => resolveInboxOptions({ ...base, deadLetterTopic: 'trading.order.events' })).toThrow(
      /deadLetterTopic/,
    );
  });

  it('refuses a retry topic that other groups read, or that is the dead-letter topic', () => {
    expect(() => resolveInboxOptions({ ...base, retryTopic: 'trading.order.events' })).toThrow(
      /retryTopic must not be one of topics/,
    );
    expect(() => resolveInboxOptions({ ...base, retryTopic: 'fulfillment.dlq' })).toThrow(
      /retryTopic must not be the deadLetterTopic/,
    );
  });
});
