import { EventEnvelope, EventHeader } from '@outbox-inbox/messaging';
import { InboxBatchContext, InboxContext } from '@outbox-inbox/inbox';
import { Logger } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { KafkaContext } from '@nestjs/microservices';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { lastValueFrom, Observable } from 'rxjs';
import { EntityManager } from 'typeorm';
import { currentCorrelationId } from '../correlation/correlation-context';
import { InboxObserverInterceptor } from './inbox-observer.interceptor';

describe('InboxObserverInterceptor', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => provider.shutdown());
  afterEach(() => exporter.reset());

  const interceptor = new InboxObserverInterceptor();
  const manager = {} as EntityManager;
  const traceId = (n: number) => String(n).padStart(32, '0');
  const parentSpanId = (n: number) => String(n).padStart(16, '0');

  function event(n: number): EventEnvelope {
    return {
      eventId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      eventType: 'OrderPaid',
      eventKey: `OrderPaid:o-${n}:1`,
      correlationId: `corr-${n}`,
    } as EventEnvelope;
  }

  function origin(n: number) {
    return {
      topic: 'trading.order.events',
      partition: 1,
      offset: String(100 + n),
      headers: { [EventHeader.traceparent]: `00-${traceId(n)}-${parentSpanId(n)}-01` },
    };
  }

  /** Runs the interceptor around a handler that reports the span and correlation it ran in. */
  async function intercept(data: unknown, rpcContext: unknown, fails = false) {
    const host = new ExecutionContextHost([data, rpcContext]);
    host.setType('rpc');
    const seen: { traceId?: string; correlationId?: string } = {};
    const handler = {
      handle: () =>
        new Observable<void>((subscriber) => {
          seen.traceId = trace.getActiveSpan()?.spanContext().traceId;
          seen.correlationId = currentCorrelationId();
          if (fails) subscriber.error(new Error('handler failed'));
          else subscriber.complete();
        }),
    };
    const done = lastValueFrom(interceptor.intercept(host, handler), { defaultValue: undefined });
    if (fails) await expect(done).rejects.toThrow('handler failed');
    else await done;
    return { seen, spans: exporter.getFinishedSpans() };
  }

  const single = (n: number) =>
    new InboxContext({ manager, consumer: 'fulfillment', ...origin(n) });

  it("continues an event's trace from its Kafka headers under its correlation id", async () => {
    const { seen, spans } = await intercept(event(1), single(1));
    expect(spans).toHaveLength(1);
    const [span] = spans as [ReadableSpan];
    expect(span.name).toBe('process OrderPaid');
    expect(span.kind).toBe(SpanKind.CONSUMER);
    expect(span.spanContext().traceId).toBe(traceId(1));
    expect(span.parentSpanContext?.spanId).toBe(parentSpanId(1));
    expect(span.attributes['messaging.kafka.offset']).toBe(101);
    expect(seen).toEqual({ traceId: traceId(1), correlationId: 'corr-1' });
  });

  it("gives a run of events one span linked to each event's trace, under the first correlation id", async () => {
    const runContext = new InboxBatchContext(manager, 'fulfillment', [1, 2, 3].map(origin));
    const { seen, spans } = await intercept([1, 2, 3].map(event), runContext);
    expect(spans).toHaveLength(1);
    const [span] = spans as [ReadableSpan];
    expect(span.name).toBe('process OrderPaid');
    expect(span.attributes['messaging.batch.message_count']).toBe(3);
    expect(span.links.map((l) => l.context.traceId)).toEqual([1, 2, 3].map(traceId));
    expect(span.links.map((l) => l.context.spanId)).toEqual([1, 2, 3].map(parentSpanId));
    expect(span.parentSpanContext).toBeUndefined();
    expect(seen).toEqual({ traceId: span.spanContext().traceId, correlationId: 'corr-1' });
  });

  it('treats a run of one event like a single event: its trace continues', async () => {
    const runContext = new InboxBatchContext(manager, 'fulfillment', [origin(4)]);
    const { seen, spans } = await intercept([event(4)], runContext);
    expect(spans.map((s) => s.spanContext().traceId)).toEqual([traceId(4)]);
    expect(spans[0].parentSpanContext?.spanId).toBe(parentSpanId(4));
    expect(seen.correlationId).toBe('corr-4');
  });

  it('takes the correlation-id header by the HTTP rule when the envelope has none', async () => {
    const { correlationId: _none, ...bare } = event(6);
    const withHeader = (value: string) =>
      new InboxContext({
        manager,
        consumer: 'fulfillment',
        ...origin(6),
        headers: { [EventHeader.correlationId]: value },
      });
    expect((await intercept(bare, withHeader('flow-6'))).seen.correlationId).toBe('flow-6');
    const forged = 'x'.repeat(129);
    const { seen, spans } = await intercept(bare, withHeader(forged));
    expect(seen.correlationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(spans.at(-1)?.attributes['correlation.id']).toBe(seen.correlationId);
  });

  it('marks the span failed when the handler fails, and lets the error through', async () => {
    const { spans } = await intercept(event(5), single(5), true);
    expect(spans).toHaveLength(1);
    expect(spans[0].status).toEqual({ code: SpanStatusCode.ERROR, message: 'handler failed' });
  });

  it('leaves handlers of other transports alone', async () => {
    const { seen, spans } = await intercept({ eventType: 'OrderPaid' }, { some: 'context' });
    expect(spans).toHaveLength(0);
    expect(seen.correlationId).toBeUndefined();
  });

  it("leaves Nest's own Kafka transport alone, whose context also names a topic", async () => {
    const { offset, headers } = origin(5);
    const args = [{ offset, headers }, 1, 'trading.order.events', {}, async () => undefined, {}];
    const kafka = new KafkaContext(
      args as unknown as ConstructorParameters<typeof KafkaContext>[0],
    );
    const { seen, spans } = await intercept(event(5), kafka);
    expect(spans).toHaveLength(0);
    expect(seen.correlationId).toBeUndefined();
  });
});
