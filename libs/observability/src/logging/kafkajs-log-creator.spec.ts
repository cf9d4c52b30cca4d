import { AddressInfo, createServer } from 'node:net';
import { Writable } from 'node:stream';
import { Kafka, logLevel } from 'kafkajs';
import { Logger, PinoLogger } from 'nestjs-pino';
import pino, { LoggerOptions } from 'pino';
import { kafkajsLogCreator } from './kafkajs-log-creator';
import { pinoOptions } from './pino-options';

/** A port nothing listens on: kafkajs's connection to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The service's pino settings, writing JSON lines into `lines`. */
function capturedPino(lines: Array<Record<string, unknown>>, level: string) {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(text));
      done();
    },
  });
  return pino(pinoOptions('order-service', level).pinoHttp as LoggerOptions, stream);
}

/** Connects a kafkajs admin to a closed port, which makes kafkajs log its connection errors. */
async function failToConnect(kafkaLevel: logLevel, logger: () => pino.Logger): Promise<void> {
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
  it("writes kafkajs's lines in the JSON shape of the service's own lines", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const root = capturedPino(lines, 'log');
    // A line of the service's code, as Nest writes it through nestjs-pino.
    new Logger(new PinoLogger({ pinoHttp: { logger: root } }), {}).warn('a warning', 'Relay');
    await failToConnect(logLevel.WARN, () => root);

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
    expect(kafkajs.map((l) => l.message).join('\n')).toMatch(/Connection error|connect/i);
  });

  it("maps kafkajs's levels onto pino's, so LOG_LEVEL filters them like any other line", async () => {
    const debugLines: Array<Record<string, unknown>> = [];
    await failToConnect(logLevel.DEBUG, () => capturedPino(debugLines, 'debug'));
    const levels = new Set(debugLines.map((l) => l.level));
    expect(levels).toEqual(new Set(['debug', 'error']));

    const quietLines: Array<Record<string, unknown>> = [];
    await failToConnect(logLevel.DEBUG, () => capturedPino(quietLines, 'warn'));
    expect(quietLines.length).toBeGreaterThan(0);
    expect(quietLines.filter((l) => l.level !== 'error')).toEqual([]);
  });
});
