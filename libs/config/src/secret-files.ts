import { readFileSync } from 'node:fs';
import { ConfigError } from './config.error';

/**
 * The variables that hold secrets. Each may instead be read from the file that `<NAME>_FILE`
 * names (the Docker and Kubernetes secrets convention), so the value never sits in the
 * process's environment, where `docker inspect` or `/proc/<pid>/environ` would show it.
 */
export const SECRET_VARIABLES = [
  'DATABASE_PASSWORD',
  'KAFKA_SASL_PASSWORD',
  'PAY_CALLBACK_SECRET',
  'PAY_CALLBACK_SECRET_PREVIOUS',
  'OPS_API_TOKEN',
  'OPS_API_TOKENS',
] as const;

/** Reads a secret file's whole text; replaced in tests. */
export type SecretFileReader = (path: string) => string;

/**
 * `env` with each secret of `names` whose `<NAME>_FILE` is set taken from that file, its
 * trailing line breaks trimmed (`echo secret > file` writes one). A secret set both ways, a
 * file that cannot be read and an empty file are ConfigErrors naming the variable and the
 * path, never the value. An empty variable counts as unset, as in validateEnv. The `_FILE`
 * variables themselves are left in place: schemas do not declare them, so they are dropped.
 */
export function readSecretFiles(
  env: Record<string, unknown>,
  names: readonly string[] = SECRET_VARIABLES,
  readFile: SecretFileReader = (path) => readFileSync(path, 'utf8'),
): Record<string, unknown> {
  const resolved = { ...env };
  const problems: string[] = [];
  for (const name of names) {
    const path = env[`${name}_FILE`];
    if (path === undefined || path === '') continue;
    if (env[name] !== undefined && env[name] !== '') {
      problems.push(`${name}: set both directly and as ${name}_FILE; give it one way`);
      continue;
    }
    try {
      resolved[name] = readSecretFile(name, String(path), readFile);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return resolved;
}

/**
 * The secret `name` from the file at `path` (what `<NAME>_FILE` names), its trailing line
 * breaks trimmed. An unreadable or empty file is a ConfigError naming `<NAME>_FILE` and the
 * path, never the value. Called at start by readSecretFiles, and again at each SASL login
 * for KAFKA_SASL_PASSWORD (kafkaClientSecurity), so a rotated password needs no restart.
 */
export function readSecretFile(
  name: string,
  path: string,
  readFile: SecretFileReader = (file) => readFileSync(file, 'utf8'),
): string {
  let text: string;
  try {
    text = readFile(path);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError([`${name}_FILE: cannot read ${path} (${reason})`]);
  }
  const value = text.replace(/[\r\n]+$/, '');
  if (value === '') throw new ConfigError([`${name}_FILE: ${path} is empty`]);
  return value;
}
