import { DynamicModule } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { EnvSchema, validateEnv } from './validate-env';

/** A service's configuration: the global module to import, and the values it validated. */
export interface ServiceConfig<T> {
  /**
   * `ConfigModule.forRoot`, global: `ConfigService` serves the validated values (typed:
   * numbers, booleans, lists), and the schema class itself is a token for the whole object.
   */
  module: DynamicModule;
  /** The validated instance of the schema, for wiring that needs values before the app exists. */
  values: T;
}

/**
 * Builds the service's configuration through @nestjs/config, with the schema's class-validator
 * rules as `ConfigModule.forRoot`'s `validate`: process.env is validated as the module is built,
 * so a missing or malformed variable rejects with a ConfigError naming it before anything starts.
 * No .env file is read: the environment is the only source, as in a container.
 */
export async function serviceConfig<T extends object>(
  schema: EnvSchema<T>,
): Promise<ServiceConfig<T>> {
  let values: T | undefined;
  const module = await ConfigModule.forRoot({
    isGlobal: true,
    ignoreEnvFile: true,
    cache: true,
    validate: (env) => (values = validateEnv(schema, env)),
  });
  if (values === undefined) throw new Error('ConfigModule.forRoot did not call validate');
  return {
    module: {
      ...module,
      providers: [...(module.providers ?? []), { provide: schema, useValue: values }],
      exports: [...(module.exports ?? []), schema],
    },
    values,
  };
}
