import { EventRegistry, MessageTracing, openTelemetryTracing } from '@outbox-inbox/messaging';
import { resolveInboxOptions } from './inbox.options';

const registry = new EventRegistry();
const base = {
  consumer: 'shipping',
  kafka: { brokers: ['127.0.0.1:9092'], clientId: 'shipping' },
  topics: ['parcels.events'],
  registry,
};

describe('resolveInboxOptions', () => {
  it('fills the defaults and keeps the registry it is given', () => {
    const resolved = resolveInboxOptions(base);
    expect(resolved.deadLetterTopic).toBe('shipping.dlq');
    expect(resolved.retryTopic).toBe('shipping.retry');
    expect(resolved.retry.maxAttempts).toBe(8);
    expect(resolved.registry).toBe(registry);
  });

  it('names every bad field at once', () => {
    expect(() =>
      resolveInboxOptions({ ...base, consumer: 'bad name', topics: [], retry: { maxAttempts: 0 } }),
    ).toThrow(/consumer must.*topics must not be empty.*retry.maxAttempts/);
  });

  it('refuses to start without an event registry: the inbox knows no catalogue of its own', () => {
    const { registry: _none, ...withoutRegistry } = base;
    expect(() =>
      resolveInboxOptions(withoutRegistry as unknown as Parameters<typeof resolveInboxOptions>[0]),
    ).toThrow(/registry must be an EventRegistry/);
  });

  it('refuses a dead-letter topic that is also consumed', () => {
    expect(() => resolveInboxOptions({ ...base, deadLetterTopic: 'parcels.events' })).toThrow(
      /deadLetterTopic/,
    );
  });

  it('refuses a retry topic that other groups read, or that is the dead-letter topic', () => {
    expect(() => resolveInboxOptions({ ...base, retryTopic: 'parcels.events' })).toThrow(
      /retryTopic must not be one of topics/,
    );
    expect(() => resolveInboxOptions({ ...base, retryTopic: 'shipping.dlq' })).toThrow(
      /retryTopic must not be the deadLetterTopic/,
    );
  });

  it("settles messages in OpenTelemetry's trace context unless given a tracing of the app's", () => {
    expect(resolveInboxOptions(base).tracing).toBe(openTelemetryTracing);
    const tracing: MessageTracing = { ...openTelemetryTracing };
    expect(resolveInboxOptions({ ...base, tracing }).tracing).toBe(tracing);
    expect(() => resolveInboxOptions({ ...base, tracing: {} as MessageTracing })).toThrow(
      /tracing must be a MessageTracing/,
    );
  });
});
