import { Logger, LoggerService } from '@nestjs/common';
import { logCreator, logLevel, LogEntry } from 'kafkajs';
import { redactText, redactValue } from './secrets';

/** kafkajs's levels and the Nest logger method (and so the pino level) each is written with. */
const METHOD: Record<number, 'error' | 'warn' | 'log' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'log',
  [logLevel.DEBUG]: 'debug',
};

/**
 * A kafkajs `logCreator` that writes kafkajs's lines through the app's logger, which in a
 * service is nestjs-pino: they come out as the same JSON as every other line (`level`, `time`,
 * `service`, `message`, `correlationId` and the span where there is one), with
 * `context: "kafkajs"`, kafkajs's `namespace` (Connection, Consumer, ...) and its fields
 * (broker, clientId, error, ...). By default it writes through Nest's `Logger`, so lines written
 * before `app.useLogger` are buffered like Nest's own. kafkajs's `logLevel` still decides which
 * lines are produced; LOG_LEVEL then filters them like any other. Fields with a secret name
 * (SASL passwords, tokens) and credentials in text are redacted before the logger sees them.
 */
export function kafkajsLogCreator(logger: LoggerService = new Logger()): logCreator {
  return () => (entry: LogEntry) => {
    const method = METHOD[entry.level];
    if (!method) return;
    // kafkajs's own timestamp and logger name are dropped: pino writes `time` and `context`.
    const { timestamp: _timestamp, logger: _logger, message, ...fields } = entry.log;
    const safe = redactValue(fields) as Record<string, unknown>;
    logger[method]?.(
      { namespace: entry.namespace, message: redactText(message), ...safe },
      'kafkajs',
    );
  };
}
