import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
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
