import { DynamicModule } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { EnvSchema, validateEnv } from './validate-env';

/**
 * A service's configuration as a global module: `ConfigModule.forRoot` with the schema's
 * class-validator rules as its `validate`, so a missing or malformed variable rejects with a
 * ConfigError naming it before anything starts. `ConfigService` serves the validated values
 * (typed: numbers, booleans, lists) and the schema class itself is a token for the whole object:
 * modules read their settings at DI time, `forRootAsync({ inject: [Schema], useFactory })`.
 * No .env file is read: the environment is the only source, as in a container.
 *
 * `env` replaces process.env (tests that start a service in-process): the values are validated
 * by the same rules, but neither read from nor written to process.env, which
 * `ConfigModule.forRoot`'s `validate` would do and which several apps of one process share.
 */
export async function serviceConfig<T extends object>(
  schema: EnvSchema<T>,
  env?: Record<string, string | undefined>,
): Promise<DynamicModule> {
  let values: T | undefined = env === undefined ? undefined : validateEnv(schema, env);
  const module =
    values === undefined
      ? await ConfigModule.forRoot({
          isGlobal: true,
          ignoreEnvFile: true,
          cache: true,
          validate: (processEnv) => (values = validateEnv(schema, processEnv)),
        })
      : await ConfigModule.forRoot({
          isGlobal: true,
          ignoreEnvFile: true,
          ignoreEnvVars: true,
          skipProcessEnv: true,
          load: [() => ({ ...values })],
        });
  if (values === undefined) throw new Error('ConfigModule.forRoot did not validate the env');
  return {
    ...module,
    providers: [...(module.providers ?? []), { provide: schema, useValue: values }],
    exports: [...(module.exports ?? []), schema],
  };
}
