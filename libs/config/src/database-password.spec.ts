import { CommonEnv } from './common-env';
import { ConfigError } from './config.error';
import { withDatabasePassword } from './database-password';
import { validateEnv } from './validate-env';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const base = { KAFKA_BROKERS: 'a:9092', OPS_API_TOKEN: 'an-operator-token-of-24-chars' };

describe('the database password beside DATABASE_URL', () => {
  it('joins the URL, encoded, so that any character survives the trip to the driver', () => {
    const password = 'p@ss/w:rd%20 é';
    const env = withDatabasePassword({
      DATABASE_URL: 'mysql://order_svc@db:3306/orders',
      DATABASE_PASSWORD: password,
    });
    const url = new URL(env.DATABASE_URL as string);
    expect(decodeURIComponent(url.password)).toBe(password);
    expect(url.username).toBe('order_svc');
    expect(url.host).toBe('db:3306');
    expect(url.pathname).toBe('/orders');
    expect(env).not.toHaveProperty('DATABASE_PASSWORD');
  });

  it('is read from DATABASE_PASSWORD_FILE and validated as part of DATABASE_URL', () => {
    const dir = mkdtempSync(join(tmpdir(), 'db-secret-'));
    try {
      const file = join(dir, 'password');
      writeFileSync(file, 'from-a-file\n');
      const config = validateEnv(CommonEnv, {
        ...base,
        DATABASE_URL: 'mysql://order_svc@127.0.0.1:3306/orders',
        DATABASE_PASSWORD_FILE: file,
      });
      expect(config.DATABASE_URL).toBe('mysql://order_svc:from-a-file@127.0.0.1:3306/orders');
      expect(config.DATABASE_PASSWORD).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a URL that has a password of its own, never echoing either', () => {
    let error: unknown;
    try {
      validateEnv(CommonEnv, {
        ...base,
        DATABASE_URL: 'mysql://order_svc:url-secret@127.0.0.1:3306/orders',
        DATABASE_PASSWORD: 'variable-secret',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/DATABASE_PASSWORD: DATABASE_URL has a password too/);
    expect(message).not.toMatch(/url-secret|variable-secret/);
  });

  it('refuses a URL without a user, and leaves a URL without DATABASE_PASSWORD alone', () => {
    expect(() =>
      withDatabasePassword({ DATABASE_URL: 'mysql://db:3306/orders', DATABASE_PASSWORD: 'x' }),
    ).toThrow(/names no user/);
    const env = { DATABASE_URL: 'mysql://root:secret@db:3306/orders' };
    expect(withDatabasePassword(env)).toBe(env);
  });
});
