import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KafkaJSSASLAuthenticationError } from 'kafkajs';
import { CommonEnv } from './common-env';
import { ConfigError } from './config.error';
import { kafkaClientSecurity, kafkaSecurityFromEnv } from './kafka-client-security';
import { validateEnv } from './validate-env';

const base = {
  DATABASE_URL: 'mysql://root@127.0.0.1:3306/orders',
  KAFKA_BROKERS: 'a:9092',
  OPS_API_TOKEN: 'an-operator-token-of-24-chars',
};
const scram = {
  KAFKA_SASL_MECHANISM: 'scram-sha-512',
  KAFKA_SASL_USERNAME: 'order-service',
  KAFKA_SASL_PASSWORD: 'the-kafka-password',
};

function problemsOf(env: Record<string, string>): string {
  try {
    validateEnv(CommonEnv, { ...base, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('the Kafka client security settings', () => {
  let dir: string;
  let ca: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kafka-security-'));
    ca = join(dir, 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('give no ssl and no sasl when unset: a plaintext client as before', () => {
    expect(kafkaClientSecurity(validateEnv(CommonEnv, base))).toEqual({});
  });

  it('give SASL/SCRAM over TLS with the CA the file holds', () => {
    const config = validateEnv(CommonEnv, {
      ...base,
      ...scram,
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: ca,
    });
    expect(kafkaClientSecurity(config)).toEqual({
      ssl: { ca: ['-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'] },
      sasl: {
        mechanism: 'scram-sha-512',
        username: 'order-service',
        password: 'the-kafka-password',
      },
    });
  });

  it('give TLS with the system CAs when KAFKA_SSL=true has no CA file', () => {
    expect(kafkaClientSecurity(validateEnv(CommonEnv, { ...base, KAFKA_SSL: 'true' }))).toEqual({
      ssl: true,
    });
  });

  it('take each mechanism kafkajs knows by the same name, and no other', () => {
    for (const mechanism of ['plain', 'scram-sha-256', 'scram-sha-512']) {
      const config = validateEnv(CommonEnv, { ...base, ...scram, KAFKA_SASL_MECHANISM: mechanism });
      expect(kafkaClientSecurity(config).sasl?.mechanism).toBe(mechanism);
    }
    expect(problemsOf({ ...scram, KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512' })).toMatch(
      /KAFKA_SASL_MECHANISM must be one of plain, scram-sha-256, scram-sha-512/,
    );
  });

  it('want the user and the password with a mechanism, and a mechanism with either', () => {
    const { KAFKA_SASL_USERNAME: _u, ...noUser } = scram;
    expect(problemsOf(noUser)).toMatch(/KAFKA_SASL_USERNAME is required with KAFKA_SASL_MECHANISM/);
    const { KAFKA_SASL_PASSWORD: _p, ...noPassword } = scram;
    expect(problemsOf(noPassword)).toMatch(/KAFKA_SASL_PASSWORD is required/);
    const { KAFKA_SASL_MECHANISM: _m, ...noMechanism } = scram;
    expect(problemsOf(noMechanism)).toMatch(/KAFKA_SASL_MECHANISM must be one of/);
  });

  it('want KAFKA_SSL=true with a CA file, and a CA file that can be read', () => {
    expect(problemsOf({ KAFKA_SSL_CA_FILE: ca })).toMatch(
      /KAFKA_SSL_CA_FILE is set but KAFKA_SSL is not true/,
    );
    const missing = join(dir, 'missing.pem');
    expect(problemsOf({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: missing })).toMatch(
      `KAFKA_SSL_CA_FILE: cannot read ${missing}`,
    );
    expect(problemsOf({ KAFKA_SSL: 'yes' })).toMatch(/KAFKA_SSL must be true or false/);
  });

  it('never echo the password in a problem', () => {
    const message = problemsOf({ ...scram, KAFKA_SASL_MECHANISM: 'kerberos' });
    expect(message).not.toContain('the-kafka-password');
  });

  it('read the password from KAFKA_SASL_PASSWORD_FILE, for services and scripts alike', () => {
    const file = join(dir, 'kafka-password');
    writeFileSync(file, 'from-the-file\n');
    const { KAFKA_SASL_PASSWORD: _p, ...withoutPassword } = scram;
    const env = { ...withoutPassword, KAFKA_SASL_PASSWORD_FILE: file };
    expect(kafkaClientSecurity(validateEnv(CommonEnv, { ...base, ...env })).sasl).toMatchObject({
      password: 'from-the-file',
    });
    expect(kafkaSecurityFromEnv(env).sasl).toMatchObject({ password: 'from-the-file' });
    expect(() => kafkaSecurityFromEnv({ ...env, KAFKA_SASL_PASSWORD: 'x' })).toThrow(
      /KAFKA_SASL_PASSWORD: set both directly and as KAFKA_SASL_PASSWORD_FILE/,
    );
  });

  describe('with the password from KAFKA_SASL_PASSWORD_FILE', () => {
    const { KAFKA_SASL_PASSWORD: _p, ...withoutPassword } = scram;

    it('read the file again at each login: a password rotated in the file needs no restart', () => {
      const file = join(dir, 'rotated-password');
      writeFileSync(file, 'the-first-password\n');
      const sasl = kafkaSecurityFromEnv({ ...withoutPassword, KAFKA_SASL_PASSWORD_FILE: file })
        .sasl as { password: string };
      expect(sasl.password).toBe('the-first-password');
      // As Kubernetes updates a mounted secret: the new file renamed over the old one.
      writeFileSync(`${file}.new`, 'the-second-password\n');
      renameSync(`${file}.new`, file);
      expect(sasl.password).toBe('the-second-password');
      writeFileSync(file, 'the-third-password');
      expect(sasl.password).toBe('the-third-password');
    });

    it('fail a login as a refused password when the file went, naming the variable, never the value', () => {
      const file = join(dir, 'vanishing-password');
      writeFileSync(file, 'a-password-once-read\n');
      const sasl = kafkaSecurityFromEnv({ ...withoutPassword, KAFKA_SASL_PASSWORD_FILE: file })
        .sasl as { password: string };
      rmSync(file);
      let refused: unknown;
      try {
        void sasl.password;
      } catch (error) {
        refused = error;
      }
      // The name kafkajs gives a refused login: the relay holds its rows and names the cause.
      expect(refused).toBeInstanceOf(KafkaJSSASLAuthenticationError);
      expect((refused as Error).message).toMatch(
        `KAFKA_SASL_PASSWORD_FILE: cannot read ${file} (ENOENT)`,
      );
      writeFileSync(file, '\n');
      expect(() => sasl.password).toThrow(`KAFKA_SASL_PASSWORD_FILE: ${file} is empty`);
      expect(() => sasl.password).not.toThrow(/a-password-once-read/);
    });

    it('read a password set directly once, as before', () => {
      const sasl = kafkaSecurityFromEnv(scram).sasl as { password: string };
      expect(Object.getOwnPropertyDescriptor(sasl, 'password')).toMatchObject({
        value: 'the-kafka-password',
      });
    });
  });

  it('are checked for the scripts by the same rules, without the services’ other variables', () => {
    expect(kafkaSecurityFromEnv({})).toEqual({});
    expect(kafkaSecurityFromEnv({ ...scram, PATH: '/bin' })).toEqual({
      sasl: {
        mechanism: 'scram-sha-512',
        username: 'order-service',
        password: 'the-kafka-password',
      },
    });
    expect(() => kafkaSecurityFromEnv({ KAFKA_SASL_MECHANISM: 'plain' })).toThrow(ConfigError);
  });
});
