import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { activeTraceContext, publishTraced } from './outbox-tracing';
import { TopicBatch } from './outbox-publisher';

describe('outbox tracing', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  const tracer = trace.getTracer('test');

  afterEach(() => exporter.reset());
  afterAll(() => provider.shutdown());

  it('captures the active span as the stored trace context, and nothing outside a span', () => {
    expect(activeTraceContext()).toBeUndefined();
    const request = tracer.startSpan('POST /payments/callback');
    const stored = context.with(trace.setSpan(context.active(), request), activeTraceContext);
    request.end();
    const { traceId, spanId } = request.spanContext();
    expect(stored).toEqual({ traceparent: `00-${traceId}-${spanId}-01` });
  });

  it('publishes each message in a producer span under its stored context and hands that span on', async () => {
    const request = tracer.startSpan('request');
    const stored = context.with(trace.setSpan(context.active(), request), activeTraceContext)!;
    request.end();
    const batches: TopicBatch[] = [
      {
        topic: 'parcels',
        messages: [
          {
            key: 'o1',
            value: '{}',
            headers: { 'event-id': 'e1', traceparent: stored.traceparent },
          },
          { key: 'o2', value: '{}', headers: { 'event-id': 'e2' } },
        ],
      },
    ];
    let sent: TopicBatch[] = [];
    await publishTraced(batches, async (traced) => void (sent = traced));

    const spans = exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.PRODUCER);
    expect(spans).toHaveLength(2);
    const [first, second] = spans;
    expect(first.spanContext().traceId).toBe(request.spanContext().traceId);
    expect(first.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(second.spanContext().traceId).not.toBe(request.spanContext().traceId);
    expect(sent[0].messages[0].headers.traceparent).toBe(
      `00-${first.spanContext().traceId}-${first.spanContext().spanId}-01`,
    );
    expect(sent[0].messages[0].headers['event-id']).toBe('e1');
    // The rows' own headers are not changed.
    expect(batches[0].messages[0].headers.traceparent).toBe(stored.traceparent);
  });

  it('ends the spans as errors when the send fails, and rethrows', async () => {
    const failing = publishTraced(
      [{ topic: 'parcels', messages: [{ key: 'o1', value: '{}', headers: {} }] }],
      () => Promise.reject(new Error('broker gone')),
    );
    await expect(failing).rejects.toThrow('broker gone');
    const [span] = exporter.getFinishedSpans();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'broker gone' });
  });
});
