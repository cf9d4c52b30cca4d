import { AddressInfo, createServer } from 'node:net';
import { Writable } from 'node:stream';
import { ConsoleLogger, Logger as NestLogger, LoggerService } from '@nestjs/common';
import { Kafka, logLevel } from 'kafkajs';
import { Logger, PinoLogger } from 'nestjs-pino';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import pino, { LoggerOptions } from 'pino';
import { kafkajsLogCreator } from './kafkajs-log-creator';
import { pinoOptions } from './pino-options';

type Line = Record<string, unknown>;

/** A port nothing listens on: kafkajs's connection to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The logger a service hands to `app.useLogger`: nestjs-pino with the service's pino settings, writing into `lines`. */
function serviceLogger(lines: Line[], level: string): LoggerService {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(text));
      done();
    },
  });
  const root = pino(pinoOptions('order-service', level).pinoHttp as LoggerOptions, stream);
  __resetOutOfContextForTests(); // nestjs-pino keeps the first logger process-wide
  return new Logger(new PinoLogger({ pinoHttp: { logger: root } }), {});
}

/** Connects a kafkajs admin to a closed port, which makes kafkajs log its connection errors. */
async function failToConnect(kafkaLevel: logLevel, logger?: LoggerService): Promise<void> {
  const kafka = new Kafka({
    clientId: 'order-service',
    brokers: [`127.0.0.1:${await closedPort()}`],
    logLevel: kafkaLevel,
    logCreator: kafkajsLogCreator(logger),
    retry: { retries: 0 },
  });
  await expect(kafka.admin().connect()).rejects.toThrow();
}

describe('kafkajsLogCreator', () => {
  afterEach(() => NestLogger.overrideLogger(new ConsoleLogger()));

  it("writes kafkajs's lines through the app's logger, in the JSON shape of the service's own lines", async () => {
    const lines: Line[] = [];
    // What app.useLogger(app.get(Logger)) does in a service.
    NestLogger.overrideLogger(serviceLogger(lines, 'log'));
    new NestLogger('Relay').warn('a warning');
    await failToConnect(logLevel.WARN);

    const [nest, ...kafkajs] = lines;
    expect(nest).toMatchObject({ level: 'warn', service: 'order-service', context: 'Relay' });
    expect(kafkajs.length).toBeGreaterThan(0);
    for (const line of kafkajs) {
      // Every key of a Nest line, with values of the same kind, plus kafkajs's own fields.
      expect(Object.keys(line)).toEqual(expect.arrayContaining(Object.keys(nest)));
      expect(line).toMatchObject({
        level: 'error',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        service: 'order-service',
        context: 'kafkajs',
        namespace: expect.any(String),
        message: expect.any(String),
      });
      expect(line).not.toHaveProperty('logger');
      expect(line).not.toHaveProperty('timestamp');
    }
    expect(kafkajs.map((l) => l.message).join('\n')).toMatch(/Connection error/);
    expect(kafkajs.some((l) => typeof l.broker === 'string')).toBe(true);
  });

  it("maps kafkajs's levels onto pino's, so LOG_LEVEL filters them like any other line", async () => {
    const debugLines: Line[] = [];
    await failToConnect(logLevel.DEBUG, serviceLogger(debugLines, 'debug'));
    expect(new Set(debugLines.map((l) => l.level))).toEqual(new Set(['debug', 'error']));

    const quietLines: Line[] = [];
    await failToConnect(logLevel.DEBUG, serviceLogger(quietLines, 'warn'));
    expect(quietLines.length).toBeGreaterThan(0);
    expect(quietLines.filter((l) => l.level !== 'error')).toEqual([]);
  });
});
