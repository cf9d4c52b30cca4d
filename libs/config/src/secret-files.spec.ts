import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommonEnv, ServiceEnv } from './common-env';
import { ConfigError } from './config.error';
import { readSecretFile, readSecretFiles, SECRET_VARIABLES } from './secret-files';
import { validateEnv } from './validate-env';

const token = 'an-operator-token-of-24-chars';
const base = { DATABASE_URL: 'mysql://svc@127.0.0.1:3306/orders', KAFKA_BROKERS: 'a:9092' };

function failure(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('readSecretFiles', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'secrets-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('covers every secret of issue 36', () => {
    expect([...SECRET_VARIABLES].sort()).toEqual(
      [
        'DATABASE_PASSWORD',
        'KAFKA_SASL_PASSWORD',
        'OPS_API_TOKEN',
        'OPS_API_TOKENS',
        'PAY_CALLBACK_SECRET',
        'PAY_CALLBACK_SECRET_PREVIOUS',
      ].sort(),
    );
  });

  it('takes each secret from its <NAME>_FILE, with the trailing line break trimmed', () => {
    const env = readSecretFiles({
      OPS_API_TOKEN_FILE: file('token', `${token}\n`),
      KAFKA_SASL_PASSWORD_FILE: file('kafka', 'kafka-pass\r\n'),
      PAY_CALLBACK_SECRET_FILE: file('pay', ' spaces stay '),
    });
    expect(env).toMatchObject({
      OPS_API_TOKEN: token,
      KAFKA_SASL_PASSWORD: 'kafka-pass',
      PAY_CALLBACK_SECRET: ' spaces stay ',
    });
  });

  it('leaves the environment as it is when no _FILE is set, and reads only the names given', () => {
    const env = { OPS_API_TOKEN: token, PAY_CALLBACK_SECRET_FILE: '/does/not/exist' };
    expect(readSecretFiles(env, ['OPS_API_TOKEN'])).toEqual(env);
  });

  it('refuses a secret set both ways, naming it and never its value', () => {
    const error = failure(() =>
      readSecretFiles({ OPS_API_TOKEN: token, OPS_API_TOKEN_FILE: file('t', 'from-file-value') }),
    );
    expect(error.message).toMatch(/OPS_API_TOKEN: set both directly and as OPS_API_TOKEN_FILE/);
    expect(error.message).not.toContain(token);
    expect(error.message).not.toContain('from-file-value');
  });

  it('counts an empty variable as unset, as validateEnv does', () => {
    const env = readSecretFiles({ OPS_API_TOKEN: '', OPS_API_TOKEN_FILE: file('t', token) });
    expect(env.OPS_API_TOKEN).toBe(token);
  });

  it('names a file that cannot be read, or is empty', () => {
    const missing = join(dir, 'missing');
    expect(failure(() => readSecretFiles({ PAY_CALLBACK_SECRET_FILE: missing })).message).toMatch(
      `PAY_CALLBACK_SECRET_FILE: cannot read ${missing} (ENOENT)`,
    );
    expect(failure(() => readSecretFiles({ OPS_API_TOKENS_FILE: dir })).message).toMatch(
      /OPS_API_TOKENS_FILE: cannot read .* \(EISDIR\)/,
    );
    const empty = file('empty', '\n');
    expect(failure(() => readSecretFiles({ OPS_API_TOKEN_FILE: empty })).message).toMatch(
      `OPS_API_TOKEN_FILE: ${empty} is empty`,
    );
  });

  it('feeds validateEnv: a secret from a file is validated like one set directly', () => {
    const config = validateEnv(CommonEnv, { ...base, OPS_API_TOKEN_FILE: file('t', `${token}\n`) });
    expect(config.OPS_API_TOKEN).toBe(token);
    expect(config).not.toHaveProperty('OPS_API_TOKEN_FILE');
    const short = failure(() =>
      validateEnv(CommonEnv, { ...base, OPS_API_TOKEN_FILE: file('s', 'short-secret-value') }),
    );
    expect(short.message).toMatch(/OPS_API_TOKEN must be at least 24 characters/);
    expect(short.message).not.toContain('short-secret-value');
    const tokens = 'alice:alices-token-of-24-characters';
    expect(
      validateEnv(CommonEnv, { ...base, OPS_API_TOKENS_FILE: file('n', `${tokens}\n`) }),
    ).toMatchObject({ OPS_API_TOKENS: tokens });
  });

  it('reads in validateEnv only the files of secrets the schema declares', () => {
    // The coupon provider (ServiceEnv) has no Kafka and no callback: their files are not its own.
    const config = validateEnv(ServiceEnv, {
      ...base,
      OPS_API_TOKEN: token,
      KAFKA_SASL_PASSWORD_FILE: join(dir, 'missing'),
      PAY_CALLBACK_SECRET_FILE: join(dir, 'missing'),
    });
    expect(config.OPS_API_TOKEN).toBe(token);
    expect(() =>
      validateEnv(CommonEnv, {
        ...base,
        OPS_API_TOKEN: token,
        KAFKA_SASL_PASSWORD_FILE: join(dir, 'missing'),
      }),
    ).toThrow(/KAFKA_SASL_PASSWORD_FILE: cannot read/);
  });
});

describe('readSecretFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'secret-file-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the file as it is now: a change between two reads is seen by the second', () => {
    const path = join(dir, 'kafka');
    writeFileSync(path, 'the-old-password\n');
    expect(readSecretFile('KAFKA_SASL_PASSWORD', path)).toBe('the-old-password');
    writeFileSync(path, 'the-new-password\n');
    expect(readSecretFile('KAFKA_SASL_PASSWORD', path)).toBe('the-new-password');
  });

  it('names the variable and the path of a file it cannot read, never a value', () => {
    const path = join(dir, 'kafka');
    const error = failure(() =>
      readSecretFile('KAFKA_SASL_PASSWORD', path, () => {
        throw Object.assign(new Error('EACCES: the-secret-value'), { code: 'EACCES' });
      }),
    );
    expect(error.problems).toEqual([`KAFKA_SASL_PASSWORD_FILE: cannot read ${path} (EACCES)`]);
    expect(error.message).not.toContain('the-secret-value');
  });
});
