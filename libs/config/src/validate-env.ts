import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { ConfigError } from './config.error';
import { withDatabasePassword } from './database-password';
import { readSecretFiles, SECRET_VARIABLES } from './secret-files';

/** A class whose properties are named after environment variables. */
export type EnvSchema<T> = new () => T;

/**
 * Reads `env` into an instance of `schema` (a class whose properties are named after the
 * variables and decorated with class-validator and class-transformer rules) and validates it.
 * Throws a ConfigError naming every missing or malformed variable; values are never echoed,
 * because some of them are secrets. An empty variable counts as unset.
 *
 * Before the rules run, each secret the schema declares may come from the file `<NAME>_FILE`
 * names (readSecretFiles), and DATABASE_PASSWORD joins DATABASE_URL (withDatabasePassword).
 *
 * This is the `validate` that `serviceConfig` hands to `ConfigModule.forRoot`; tests call it
 * with an env of their own.
 */
export function validateEnv<T extends object>(
  schema: EnvSchema<T>,
  env: Record<string, unknown> = process.env,
): T {
  const declared = Object.keys(new schema());
  const secrets = SECRET_VARIABLES.filter(
    (name) => declared.includes(name) || hasMetadata(schema, name),
  );
  const resolved = withDatabasePassword(readSecretFiles(env, secrets));
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resolved)) {
    if (value !== undefined && value !== '') plain[key] = value;
  }
  const config = plainToInstance(schema, plain, { excludeExtraneousValues: false });
  const errors = validateSync(config, { forbidUnknownValues: true });
  if (errors.length > 0) throw new ConfigError(errors.map(describe));
  // Drop variables the schema does not declare, so the config object holds only its own.
  for (const key of Object.keys(config)) {
    if (!declared.includes(key) && !hasMetadata(schema, key))
      delete (config as Record<string, unknown>)[key];
  }
  return config;
}

function describe(error: ValidationError): string {
  const rules = Object.values(error.constraints ?? {}).join('; ');
  return `${error.property}: ${rules}`;
}

function hasMetadata(schema: EnvSchema<unknown>, key: string): boolean {
  return Reflect.getMetadata('design:type', schema.prototype, key) !== undefined;
}
