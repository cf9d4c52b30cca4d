import { DynamicModule, INestApplication, Logger, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, MigrateEnv, migrationUrl, serviceConfig, validateEnv } from '@app/config';
import { ensureDatabase, openMysqlDataSource } from '@outbox-inbox/database/mysql';
import { startTracing } from '@app/observability';
import { Logger as PinoLogger } from 'nestjs-pino';

/** How one service starts; see apps/<service>/src/main.ts. */
export interface ServiceDefinition<
  C extends { DATABASE_URL: string; HOST: string; LOG_LEVEL: string },
> {
  name: string;
  /** The config class: validated from process.env, served by ConfigService and as a token. */
  config: new () => C;
  /** The service's module; it reads its settings from the config class at DI time. */
  module: DynamicModule | Type;
  port: (config: C) => number;
  /** The service's migrations, in order: `main.js migrate` applies them and starts nothing else. */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: Function[];
  /**
   * Runs after the app is created and before it listens: global pipes, Swagger, and
   * `app.connectMicroservice(...)` for Kafka consumers (started once HTTP answers).
   */
  configure?: (app: INestApplication, config: C) => void | Promise<void>;
}

/** The root of a service: its global ConfigModule beside the service's own module. */
@Module({})
class ServiceRootModule {}

/**
 * A service's root module: `config` (from `serviceConfig`, global) beside the service's own
 * module, which reads its settings from it at DI time. bootstrapService starts one; tests that
 * run a service in-process build theirs with `serviceConfig(schema, env)`.
 */
export function serviceRoot(config: DynamicModule, module: DynamicModule | Type): DynamicModule {
  return { module: ServiceRootModule, imports: [config, module] };
}

/**
 * Starts a service: validates its environment through @nestjs/config (a bad variable stops the
 * process with exit code 78 and a message naming it), then either runs its migrations and exits
 * (`main.js migrate`, see `migrate` below) or serves HTTP and its Kafka workers until SIGTERM/SIGINT, shutting down
 * gracefully. The service's module reads its settings from the config class at DI time.
 */
export async function bootstrapService<
  C extends { DATABASE_URL: string; HOST: string; LOG_LEVEL: string },
>(
  definition: ServiceDefinition<C>,
  argv: string[] = process.argv.slice(2),
): Promise<INestApplication | undefined> {
  const logger = new Logger(definition.name);
  if (argv[0] === 'migrate') {
    await migrate(definition, logger);
    return undefined;
  }
  if (argv.length > 0) {
    process.stderr.write(`${definition.name}: unknown command "${argv[0]}" (known: migrate)\n`);
    process.exit(64); // EX_USAGE
  }
  const configModule = await orExitOnConfigError(definition.name, () =>
    serviceConfig(definition.config),
  );

  // Before the app exists, so that its first request already runs in a trace context.
  startTracing(definition.name);
  const app = await NestFactory.create(serviceRoot(configModule, definition.module), {
    bufferLogs: true,
  });
  const config = app.get(definition.config);
  // JSON lines from here on (the module imports ObservabilityModule, which provides the logger).
  app.useLogger(app.get(PinoLogger));
  // On SIGTERM/SIGINT: stop the relay, end the consumers' batches and leave their groups
  // (bounded: see InboxTransport), close HTTP, then the database pool; then exit with code 0
  // (useProcessExit also lets pino flush).
  app.enableShutdownHooks(undefined, { useProcessExit: true });
  await definition.configure?.(app, config);
  const port = definition.port(config);
  // HTTP first: a consumer's first join can take a whole session timeout (30 s by default)
  // while the group waits for its other members, and /health/live must answer meanwhile.
  // /health/ready stays 503 until that first join.
  await app.listen(port, config.HOST);
  logger.log(`listening on http://${config.HOST}:${port}`);
  await startConsumers(app, logger);
  return app;
}

/**
 * `main.js migrate`: the service's migrations, as DATABASE_MIGRATE_URL's user (the schema
 * owner) when set, else DATABASE_URL's; then the process ends. It reads MigrateEnv only: a
 * one-shot migrate step needs none of the service's secrets.
 */
async function migrate(
  definition: Pick<ServiceDefinition<never>, 'name' | 'migrations'>,
  logger: Logger,
): Promise<void> {
  const env = await orExitOnConfigError(definition.name, async () => validateEnv(MigrateEnv));
  const url = await orExitOnConfigError(definition.name, async () => migrationUrl(env));
  try {
    // A bare DataSource: no relay, consumer or HTTP server starts against a schema that is
    // not there yet.
    await ensureDatabase(url);
    const dataSource = await openMysqlDataSource({
      url,
      migrations: definition.migrations,
      poolSize: 1,
    });
    try {
      const ran = await dataSource.runMigrations({ transaction: 'each' });
      logger.log(`migrations applied: ${ran.map((m) => m.name).join(', ') || 'none pending'}`);
    } finally {
      await dataSource.destroy();
    }
  } catch (error) {
    // The usual first mistake with least-privilege users: migrating as the service's own user.
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && /ACCESS_DENIED/.test(code)) {
      const who = env.DATABASE_MIGRATE_URL
        ? "DATABASE_MIGRATE_URL's user needs every privilege on the database"
        : "DATABASE_URL's user may not change the schema: set DATABASE_MIGRATE_URL to the schema owner";
      process.stderr.write(`${definition.name}: migrate: ${code}: ${who}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** A bad variable stops the process with exit code 78 and a message naming it. */
async function orExitOnConfigError<T>(name: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${name}: ${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

/**
 * Starts the Kafka consumers (they wait for an unreachable broker themselves). Only a mistake
 * in their setup (handlers, a topic that cannot exist) fails: that is logged and the process
 * shuts down with exit code 1, instead of serving HTTP without its consumer.
 */
async function startConsumers(app: INestApplication, logger: Logger): Promise<void> {
  try {
    await app.startAllMicroservices();
  } catch (error) {
    logger.error(`the Kafka consumer could not start: ${(error as Error)?.message ?? error}`);
    process.exitCode = 1;
    await app.close();
  }
}
