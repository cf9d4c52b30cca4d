import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, validateEnv } from '@app/config';
import { OrderServiceConfig } from './order-service.config';

const base = {
  DATABASE_URL: 'mysql://root@127.0.0.1:3306/order_service',
  KAFKA_BROKERS: '127.0.0.1:9092',
  OPS_API_TOKEN: 'an-operator-token-of-24-chars',
};

describe('OrderServiceConfig', () => {
  it('requires PAY_CALLBACK_SECRET, and never echoes it', () => {
    expect(() => validateEnv(OrderServiceConfig, base)).toThrow(/PAY_CALLBACK_SECRET/);
    let error: unknown;
    try {
      validateEnv(OrderServiceConfig, { ...base, PAY_CALLBACK_SECRET: 'short-secret' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/PAY_CALLBACK_SECRET/);
    expect((error as Error).message).not.toMatch(/short-secret/);
  });

  it('accepts a secret of 16 characters and defaults the port to 3000', () => {
    const config = validateEnv(OrderServiceConfig, {
      ...base,
      PAY_CALLBACK_SECRET: 's'.repeat(16),
    });
    expect(config.ORDER_SERVICE_PORT).toBe(3000);
    expect(config.PAY_CALLBACK_SECRET).toBe('s'.repeat(16));
  });

  it('needs no Kafka settings in a writer-only process (relay off), and KAFKA_BROKERS otherwise', () => {
    const { KAFKA_BROKERS: _brokers, ...noKafka } = {
      ...base,
      PAY_CALLBACK_SECRET: 's'.repeat(16),
    };
    expect(() => validateEnv(OrderServiceConfig, noKafka)).toThrow(/KAFKA_BROKERS/);
    const writerOnly = validateEnv(OrderServiceConfig, {
      ...noKafka,
      OUTBOX_RELAY_ENABLED: 'false',
    });
    expect(writerOnly.KAFKA_BROKERS).toBeUndefined();
    expect(writerOnly.OUTBOX_RELAY_ENABLED).toBe(false);
  });

  describe('the callback secrets', () => {
    const current = 'the-current-secret-16';
    const previous = 'the-previous-secret-16';

    it('take PAY_CALLBACK_SECRET_PREVIOUS beside the current one, 16+ chars, unechoed', () => {
      const config = validateEnv(OrderServiceConfig, {
        ...base,
        PAY_CALLBACK_SECRET: current,
        PAY_CALLBACK_SECRET_PREVIOUS: previous,
      });
      expect(config).toMatchObject({
        PAY_CALLBACK_SECRET: current,
        PAY_CALLBACK_SECRET_PREVIOUS: previous,
      });
      expect(
        validateEnv(OrderServiceConfig, { ...base, PAY_CALLBACK_SECRET: current })
          .PAY_CALLBACK_SECRET_PREVIOUS,
      ).toBeUndefined();
      let error: unknown;
      try {
        validateEnv(OrderServiceConfig, {
          ...base,
          PAY_CALLBACK_SECRET: current,
          PAY_CALLBACK_SECRET_PREVIOUS: 'short-old',
        });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/PAY_CALLBACK_SECRET_PREVIOUS/);
      expect((error as Error).message).not.toMatch(/short-old|the-current-secret/);
    });

    it('may both come from files, and not both ways at once', () => {
      const dir = mkdtempSync(join(tmpdir(), 'pay-secrets-'));
      try {
        const file = (name: string, text: string) => {
          writeFileSync(join(dir, name), text);
          return join(dir, name);
        };
        const files = {
          PAY_CALLBACK_SECRET_FILE: file('current', `${current}\n`),
          PAY_CALLBACK_SECRET_PREVIOUS_FILE: file('previous', `${previous}\n`),
        };
        expect(validateEnv(OrderServiceConfig, { ...base, ...files })).toMatchObject({
          PAY_CALLBACK_SECRET: current,
          PAY_CALLBACK_SECRET_PREVIOUS: previous,
        });
        expect(() =>
          validateEnv(OrderServiceConfig, { ...base, ...files, PAY_CALLBACK_SECRET: current }),
        ).toThrow(/PAY_CALLBACK_SECRET: set both directly and as PAY_CALLBACK_SECRET_FILE/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
