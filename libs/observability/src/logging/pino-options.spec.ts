import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { waitFor } from '@outbox-inbox/test-kit';
import { Options, pinoHttp } from 'pino-http';
import { CorrelatedMessageScope } from '../correlation/correlated-message-scope';
import { runWithCorrelation } from '../correlation/correlation-context';
import { pinoOptions } from './pino-options';

describe('pinoOptions', () => {
  const provider = new NodeTracerProvider();
  provider.register();
  afterAll(() => provider.shutdown());

  const http = pinoOptions('order-service', 'debug').pinoHttp as {
    level: string;
    mixin: () => Record<string, string>;
  };

  it('maps LOG_LEVEL names to pino levels', () => {
    expect(http.level).toBe('debug');
    expect((pinoOptions('s', 'log').pinoHttp as { level: string }).level).toBe('info');
    expect((pinoOptions('s', 'verbose').pinoHttp as { level: string }).level).toBe('trace');
  });

  it('adds nothing outside a request, a handler or a span', () => {
    expect(http.mixin()).toEqual({});
  });

  it('adds the correlation id and the active span to every line', () => {
    const span = trace.getTracer('test').startSpan('work');
    const fields = context.with(trace.setSpan(ROOT_CONTEXT, span), () =>
      runWithCorrelation('c-7', http.mixin),
    );
    span.end();
    expect(fields).toEqual({
      correlationId: 'c-7',
      traceId: span.spanContext().traceId,
      spanId: span.spanContext().spanId,
    });
  });

  it('adds the correlation id of an inbox message being settled', async () => {
    const scope = new CorrelatedMessageScope();
    const settling = await scope.run({ 'correlation-id': 'c-msg' }, async () => http.mixin());
    expect(settling).toEqual({ correlationId: 'c-msg' });
    expect(await scope.run({ 'event-id': 'e1' }, async () => http.mixin())).toEqual({});
  });
});

describe('pinoOptions: the request logger', () => {
  const TOKEN = 'tok-0123456789abcdefghijklmn';
  const BASIC = Buffer.from(`ops:${TOKEN}`).toString('base64');

  /** Serves one request through pino-http with the service's settings; returns its log lines. */
  async function logOf(headers: Record<string, string>, path: string): Promise<string[]> {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const options = pinoOptions('order-service', 'verbose').pinoHttp as Options;
    const logRequest = pinoHttp(options, stream);
    const server = createServer((req, res) => {
      logRequest(req, res);
      req.log.error({ err: new Error(`query failed for ${req.url}`), req }, 'handler failed');
      res.setHeader('set-cookie', `session=${TOKEN}`);
      res.statusCode = 500;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      await fetch(`http://127.0.0.1:${port}${path}`, { headers });
      await waitFor(() => (lines.length >= 2 ? lines : undefined));
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    return lines;
  }

  it.each([
    ['Bearer', { authorization: `Bearer ${TOKEN}` }],
    ['Basic', { authorization: `Basic ${BASIC}` }],
    ['cookie and pay signature', { cookie: `sid=${TOKEN}`, 'x-pay-signature': `v1=${TOKEN}` }],
  ])('logs a 5xx with %s credentials without the secret', async (_name, headers) => {
    const lines = await logOf(headers, `/inbox/stats?access_token=${TOKEN}&limit=5`);
    const access = lines.map((l) => JSON.parse(l)).find((l) => l.res?.statusCode === 500);
    expect(access).toMatchObject({ level: 'error' });
    expect(access.req.url).toBe('/inbox/stats?access_token=[Redacted]&limit=5');
    for (const name of Object.keys(headers)) expect(access.req.headers[name]).toBe('[Redacted]');
    expect(access.res.headers['set-cookie']).toBe('[Redacted]');
    for (const line of lines) {
      expect(line).not.toContain(TOKEN);
      expect(line).not.toContain(BASIC);
    }
  });
});
