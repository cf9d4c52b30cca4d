import { ConfigError, validateEnv } from '@app/config';
import { inboxOptionsFromEnv, resolveInboxOptions } from '@outbox-inbox/inbox';
import { tradingEventRegistry } from '@app/trading-events';
import { FulfillmentServiceConfig } from './fulfillment-service.config';

const base = {
  DATABASE_URL: 'mysql://root@127.0.0.1:3306/fulfillment_service',
  KAFKA_BROKERS: '127.0.0.1:9092',
  COUPON_PROVIDER_URL: 'http://127.0.0.1:3003',
  OPS_API_TOKEN: 'x'.repeat(24),
};

describe('FulfillmentServiceConfig: the inbox variables', () => {
  it('sets the dedup window and the blocked backoff cap of the inbox', () => {
    const config = validateEnv(FulfillmentServiceConfig, {
      ...base,
      INBOX_DEDUP_WINDOW_MS: String(3 * 24 * 3_600_000),
      INBOX_BLOCKED_BACKOFF_MAX_MS: '5000',
    });
    const options = resolveInboxOptions({
      consumer: 'fulfillment-service',
      kafka: { brokers: config.KAFKA_BROKERS, clientId: 'f' },
      topics: ['trading.order.events'],
      registry: tradingEventRegistry(),
      ...inboxOptionsFromEnv(config),
    });
    expect(options.dedupWindowMs).toBe(3 * 24 * 3_600_000);
    expect(options.blockedBackoff).toEqual({ baseDelayMs: 500, maxDelayMs: 5_000 });
  });

  it('keeps the defaults when they are unset', () => {
    const config = validateEnv(FulfillmentServiceConfig, base);
    expect(inboxOptionsFromEnv(config)).toEqual({});
  });

  it.each([['0'], ['59999'], ['7d'], ['-1']])(
    'refuses INBOX_DEDUP_WINDOW_MS=%s at start, naming it',
    (value) => {
      const load = () =>
        validateEnv(FulfillmentServiceConfig, { ...base, INBOX_DEDUP_WINDOW_MS: value });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(/INBOX_DEDUP_WINDOW_MS/);
    },
  );
});

describe('FulfillmentServiceConfig: Kafka', () => {
  it('requires KAFKA_BROKERS even with its relay off: it consumes', () => {
    const { KAFKA_BROKERS: _brokers, ...noKafka } = base;
    expect(() =>
      validateEnv(FulfillmentServiceConfig, { ...noKafka, OUTBOX_RELAY_ENABLED: 'false' }),
    ).toThrow(/KAFKA_BROKERS/);
  });
});
