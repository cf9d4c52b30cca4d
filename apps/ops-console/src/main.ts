import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, serviceConfig } from '@app/config';
import { serviceRoot } from '@app/service-bootstrap';
import { OpsConsoleConfig } from './ops-console.config';
import { configureOpsConsoleHttp } from './ops-console.http';
import { OpsConsoleModule } from './ops-console.module';

/**
 * Starts the ops console. Not bootstrapService: the console has no database, migrations or
 * Kafka consumer, only HTTP. A bad variable stops it with exit code 78, as the services do.
 */
async function main(argv: string[]): Promise<void> {
  const logger = new Logger('ops-console');
  if (argv[0] === 'migrate') {
    logger.log('the ops console has no database: nothing to migrate');
    return;
  }
  let configModule;
  try {
    configModule = await serviceConfig(OpsConsoleConfig);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`ops-console: ${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const app = await NestFactory.create(serviceRoot(configModule, OpsConsoleModule), {
    logger: logLevels(process.env.LOG_LEVEL),
  });
  const config = app.get(OpsConsoleConfig);
  app.enableShutdownHooks(undefined, { useProcessExit: true });
  configureOpsConsoleHttp(app);
  await app.listen(config.OPS_CONSOLE_PORT, config.HOST);
  logger.log(`listening on http://${config.HOST}:${config.OPS_CONSOLE_PORT}/ops`);
}

/** Nest's levels from LOG_LEVEL: that level and the more severe ones. */
function logLevels(level = 'log'): Array<'fatal' | 'error' | 'warn' | 'log' | 'debug' | 'verbose'> {
  const order = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;
  const index = order.indexOf(level as (typeof order)[number]);
  return order.slice(0, index === -1 ? 4 : index + 1);
}

void main(process.argv.slice(2));
