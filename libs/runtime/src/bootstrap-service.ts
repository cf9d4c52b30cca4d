import { DynamicModule, INestApplication, Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, ServiceConfig, serviceConfig } from '@app/config';
import { ensureDatabase, openMysqlDataSource } from '@outbox-inbox/database';
import { startTracing } from '@app/observability';
import { Logger as PinoLogger } from 'nestjs-pino';

/** How one service starts; see apps/<service>/src/main.ts. */
export interface ServiceDefinition<
  C extends { DATABASE_URL: string; HOST: string; LOG_LEVEL: string },
> {
  name: string;
  config: new () => C;
  module: (config: C) => DynamicModule;
  port: (config: C) => number;
  /** The service's migrations, in order: `main.js migrate` applies them and starts nothing else. */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: Function[];
  /**
   * Runs after the app is created and before it listens: global pipes, Swagger, and
   * `app.connectMicroservice(...)` for Kafka consumers (started before the HTTP server).
   */
  configure?: (app: INestApplication, config: C) => void | Promise<void>;
}

/** The root of a service: its global ConfigModule beside the service's own module. */
@Module({})
class ServiceRootModule {}

/**
 * Starts a service: validates its environment through @nestjs/config (a bad variable stops the
 * process with a message naming it), then either runs its migrations and exits (`main.js migrate`) or serves
 * HTTP and its Kafka workers until SIGTERM/SIGINT, shutting down gracefully.
 */
export async function bootstrapService<
  C extends { DATABASE_URL: string; HOST: string; LOG_LEVEL: string },
>(
  definition: ServiceDefinition<C>,
  argv: string[] = process.argv.slice(2),
): Promise<INestApplication | undefined> {
  const logger = new Logger(definition.name);
  let settings: ServiceConfig<C>;
  try {
    settings = await serviceConfig(definition.config);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${definition.name}: ${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const config = settings.values;

  if (argv[0] === 'migrate') {
    // A bare DataSource: no relay, consumer or HTTP server starts against a schema that is
    // not there yet.
    await ensureDatabase(config.DATABASE_URL);
    const dataSource = await openMysqlDataSource({
      url: config.DATABASE_URL,
      migrations: definition.migrations,
      poolSize: 1,
    });
    try {
      const ran = await dataSource.runMigrations({ transaction: 'each' });
      logger.log(`migrations applied: ${ran.map((m) => m.name).join(', ') || 'none pending'}`);
    } finally {
      await dataSource.destroy();
    }
    return undefined;
  }
  if (argv.length > 0) {
    process.stderr.write(`${definition.name}: unknown command "${argv[0]}" (known: migrate)\n`);
    process.exit(64); // EX_USAGE
  }

  // Before the app exists, so that its first request already runs in a trace context.
  startTracing(definition.name);
  const root: DynamicModule = {
    module: ServiceRootModule,
    imports: [settings.module, definition.module(config)],
  };
  const app = await NestFactory.create(root, { bufferLogs: true });
  // JSON lines from here on (the module imports ObservabilityModule, which provides the logger).
  app.useLogger(app.get(PinoLogger));
  app.enableShutdownHooks();
  await definition.configure?.(app, config);
  await app.startAllMicroservices();
  const port = definition.port(config);
  await app.listen(port, config.HOST);
  logger.log(`listening on http://${config.HOST}:${port}`);
  return app;
}
