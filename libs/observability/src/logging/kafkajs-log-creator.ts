import { Logger } from '@nestjs/common';
import { logCreator, logLevel, LogEntry } from 'kafkajs';
import { PinoLogger } from 'nestjs-pino';
import type { Logger as Pino } from 'pino';

/** kafkajs's levels and the pino method each one is written with. */
const PINO_METHOD: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/**
 * A kafkajs `logCreator` that writes kafkajs's lines through the service's pino logger, so they
 * come out as the same JSON as every other line (`level`, `time`, `service`, `message`,
 * `correlationId` and the span where there is one), with `context: "kafkajs"`, kafkajs's
 * `namespace` (Connection, Consumer, ...) and its fields (broker, clientId, error, ...).
 *
 * The logger is looked up when a line is written, not when the client is built: by default it
 * is nestjs-pino's root logger, which exists once the app has started (kafkajs connects no
 * sooner). Without one (a test app with no ObservabilityModule) the lines go to Nest's logger.
 * kafkajs's own `logLevel` still decides which lines are produced; pino's level then filters.
 */
export function kafkajsLogCreator(
  logger: () => Pino | undefined = () => PinoLogger.root,
): logCreator {
  return () => (entry: LogEntry) => {
    const method = PINO_METHOD[entry.level];
    if (!method) return;
    // kafkajs's own timestamp and logger name are dropped: pino writes `time` and `context`.
    const { message, timestamp: _timestamp, logger: _logger, ...fields } = entry.log;
    const pino = logger();
    if (pino) {
      pino[method]({ context: 'kafkajs', namespace: entry.namespace, ...fields }, message);
    } else {
      const nest = new Logger(`kafkajs:${entry.namespace}`);
      nest[method === 'info' ? 'log' : method](message);
    }
  };
}
