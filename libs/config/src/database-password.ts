import { ConfigError } from './config.error';

/**
 * `env` with DATABASE_PASSWORD (or the file DATABASE_PASSWORD_FILE names, read before) put into
 * DATABASE_URL, so that the URL may carry only the user, host and database and live in plain
 * configuration, while the password comes from a secret. Everything downstream reads the one
 * DATABASE_URL. A URL that already has a password beside DATABASE_PASSWORD is a ConfigError:
 * which one wins would be a guess. Without DATABASE_URL nothing changes (its own rule reports it).
 */
export function withDatabasePassword(env: Record<string, unknown>): Record<string, unknown> {
  const password = env.DATABASE_PASSWORD;
  const url = env.DATABASE_URL;
  if (typeof password !== 'string' || password === '') return env;
  if (typeof url !== 'string' || url === '') return env;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return env; // DATABASE_URL's own rule names it
  }
  if (parsed.password !== '') {
    throw new ConfigError([
      'DATABASE_PASSWORD: DATABASE_URL has a password too; give the password one way',
    ]);
  }
  if (parsed.username === '') {
    throw new ConfigError(['DATABASE_PASSWORD: DATABASE_URL names no user to go with it']);
  }
  // The URL setter leaves `%` as it is; encoding first keeps every character of the password.
  parsed.password = encodeURIComponent(password);
  const { DATABASE_PASSWORD: _password, ...rest } = env;
  return { ...rest, DATABASE_URL: parsed.toString() };
}
