import { CommonEnv } from './common-env';
import { ConfigError } from './config.error';
import { validateEnv } from './validate-env';

const valid = {
  DATABASE_URL: 'mysql://root:secret@127.0.0.1:3306/order_service',
  KAFKA_BROKERS: 'a:9092, b:9093',
  OPS_API_TOKEN: 'an-operator-token-of-24-chars',
};

describe('validateEnv', () => {
  it('reads, converts and defaults the declared variables', () => {
    const config = validateEnv(CommonEnv, { ...valid, DB_POOL_SIZE: '7', PATH: '/bin' });
    expect(config.DATABASE_URL).toBe(valid.DATABASE_URL);
    expect(config.KAFKA_BROKERS).toEqual(['a:9092', 'b:9093']);
    expect(config.DB_POOL_SIZE).toBe(7);
    expect(config.TOPIC_PREFIX).toBe('trading.');
    expect(config).not.toHaveProperty('PATH');
  });

  it('names every missing or malformed variable and never echoes a value', () => {
    let error: unknown;
    try {
      validateEnv(CommonEnv, { KAFKA_BROKERS: 'no-port', DB_POOL_SIZE: 'many', DATABASE_URL: '' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toMatch(/DATABASE_URL/);
    expect(message).toMatch(/KAFKA_BROKERS/);
    expect(message).toMatch(/DB_POOL_SIZE/);
    expect(message).not.toMatch(/no-port|many/);
  });

  it('takes DB_LOCK_WAIT_TIMEOUT_S as whole seconds from 1 to 3600, unset by default', () => {
    expect(validateEnv(CommonEnv, valid).DB_LOCK_WAIT_TIMEOUT_S).toBeUndefined();
    expect(validateEnv(CommonEnv, { ...valid, DB_LOCK_WAIT_TIMEOUT_S: '5' })).toMatchObject({
      DB_LOCK_WAIT_TIMEOUT_S: 5,
    });
    for (const bad of ['0', '1.5', '3601', 'soon']) {
      expect(() => validateEnv(CommonEnv, { ...valid, DB_LOCK_WAIT_TIMEOUT_S: bad })).toThrow(
        /DB_LOCK_WAIT_TIMEOUT_S/,
      );
    }
  });

  describe('the operator token', () => {
    const { OPS_API_TOKEN: token, ...withoutToken } = valid;

    it('is required, and never echoed', () => {
      expect(() => validateEnv(CommonEnv, withoutToken)).toThrow(/OPS_API_TOKEN is required/);
      let error: unknown;
      try {
        validateEnv(CommonEnv, { ...withoutToken, OPS_API_TOKEN: 'short-token' });
      } catch (e) {
        error = e;
      }
      expect((error as Error).message).toMatch(/OPS_API_TOKEN must be at least 24 characters/);
      expect((error as Error).message).not.toMatch(/short-token/);
    });

    it('is read as given when long enough', () => {
      expect(validateEnv(CommonEnv, valid)).toMatchObject({
        OPS_API_TOKEN: token,
        OPS_API_INSECURE: false,
      });
    });

    it('may be left out only with OPS_API_INSECURE=true, and is still checked when given', () => {
      const insecure = validateEnv(CommonEnv, { ...withoutToken, OPS_API_INSECURE: 'true' });
      expect(insecure).toMatchObject({ OPS_API_INSECURE: true });
      expect(insecure.OPS_API_TOKEN).toBeUndefined();
      expect(() =>
        validateEnv(CommonEnv, { ...withoutToken, OPS_API_INSECURE: 'true', OPS_API_TOKEN: 'x' }),
      ).toThrow(/OPS_API_TOKEN/);
      expect(() => validateEnv(CommonEnv, { ...withoutToken, OPS_API_INSECURE: 'yes' })).toThrow(
        /OPS_API_INSECURE/,
      );
    });

    it('may be replaced or joined by named tokens, whose malformed list is refused unechoed', () => {
      const named = 'alice:alices-token-of-24-characters,bob:bobs-token-of-24-characters!';
      expect(validateEnv(CommonEnv, { ...withoutToken, OPS_API_TOKENS: named })).toMatchObject({
        OPS_API_TOKENS: named,
      });
      expect(validateEnv(CommonEnv, { ...valid, OPS_API_TOKENS: named })).toMatchObject({
        OPS_API_TOKEN: token,
      });
      for (const bad of ['alice', 'alice:short', 'al ice:alices-token-of-24-characters', ',']) {
        let error: unknown;
        try {
          validateEnv(CommonEnv, { ...valid, OPS_API_TOKENS: bad });
        } catch (e) {
          error = e;
        }
        expect((error as Error).message).toMatch(/OPS_API_TOKENS must be name:token/);
        expect((error as Error).message).not.toContain(bad === ',' ? ',,' : bad);
      }
    });
  });
});
