import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OutgoingBatch } from './message-tracing';
import { openTelemetryTracing } from './open-telemetry-tracing';

type Message = { key: string; value: string; headers: Record<string, string> };

describe('openTelemetryTracing', () => {
  const { capture, publish, receive } = openTelemetryTracing;
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  const tracer = trace.getTracer('test');

  afterEach(() => exporter.reset());
  afterAll(() => provider.shutdown());

  it('captures the active span as the stored trace context, and nothing outside a span', () => {
    expect(capture()).toBeUndefined();
    const request = tracer.startSpan('POST /payments/callback');
    const stored = context.with(trace.setSpan(context.active(), request), capture);
    request.end();
    const { traceId, spanId } = request.spanContext();
    expect(stored).toEqual({ traceparent: `00-${traceId}-${spanId}-01` });
  });

  it('publishes each message in a producer span under its stored context and hands that span on', async () => {
    const request = tracer.startSpan('request');
    const stored = context.with(trace.setSpan(context.active(), request), capture)!;
    request.end();
    const batches: Array<OutgoingBatch<Message>> = [
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
    let sent: Array<OutgoingBatch<Message>> = [];
    await publish(batches, async (traced) => void (sent = traced));

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
    const failing = publish(
      [{ topic: 'parcels', messages: [{ key: 'o1', value: '{}', headers: {} }] }],
      () => Promise.reject(new Error('broker gone')),
    );
    await expect(failing).rejects.toThrow('broker gone');
    const [span] = exporter.getFinishedSpans();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'broker gone' });
  });

  it('settles a received message in its trace, and names no correlation id of its own', () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const spanId = '00f067aa0ba902b7';
    const headers = { traceparent: `00-${traceId}-${spanId}-01`, 'correlation-id': 'flow-1' };
    const seen = receive(headers, () => ({
      span: trace.getSpanContext(context.active()),
      baggage: propagation.getBaggage(context.active()),
    }));
    expect(seen.span).toMatchObject({ traceId, spanId, isRemote: true });
    // The correlation id is the application's (an InboxMessageScope), not baggage set here.
    expect(seen.baggage).toBeUndefined();
  });

  it("settles a message without trace headers outside any trace, not in the caller's", async () => {
    const poll = tracer.startSpan('poll');
    const result = context.with(trace.setSpan(context.active(), poll), () =>
      receive({ 'event-id': 'e1' }, async () => trace.getActiveSpan()),
    );
    poll.end();
    await expect(result).resolves.toBeUndefined();
  });
});
