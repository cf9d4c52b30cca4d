import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { TraceContext } from './envelope';
import { MessageTracing, OutgoingBatch, OutgoingMessage } from './message-tracing';

// The publish spans keep the instrumentation scope they had when the outbox made them itself.
const tracer = () => trace.getTracer('@outbox-inbox/outbox');

/**
 * MessageTracing on OpenTelemetry's global API, with W3C trace-context headers: the default of
 * every package. A no-op while no OpenTelemetry SDK is registered (no span is active, headers
 * stay as they are).
 */
export const openTelemetryTracing: MessageTracing = {
  capture: activeTraceContext,
  publish: publishTraced,
  receive: (headers, settle) => context.with(propagation.extract(ROOT_CONTEXT, headers), settle),
};

/**
 * The W3C trace context of the active span, for the envelope of an event written now (the
 * request's span when an HTTP handler writes it). Undefined when no span is active, which is
 * always the case while no OpenTelemetry SDK is registered.
 */
function activeTraceContext(): TraceContext | undefined {
  const span = trace.getActiveSpan();
  const spanContext = span?.spanContext();
  if (!spanContext || !isSpanContextValid(spanContext)) return undefined;
  const flags = spanContext.traceFlags.toString(16).padStart(2, '0');
  return {
    traceparent: `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`,
    ...(spanContext.traceState && { tracestate: spanContext.traceState.serialize() }),
  };
}

/**
 * Sends `batches` inside one PRODUCER span per message, each a child of the trace context
 * stored with its row (headers `traceparent`/`tracestate`), and hands the consumers the
 * publish span as their parent by rewriting those headers. Spans end when the send settles;
 * a failed send marks them as errors. With no SDK registered the spans are no-ops and the
 * headers stay as stored.
 */
async function publishTraced<M extends OutgoingMessage>(
  batches: Array<OutgoingBatch<M>>,
  publish: (batches: Array<OutgoingBatch<M>>) => Promise<void>,
): Promise<void> {
  const spans: Span[] = [];
  const traced = batches.map((batch) => ({
    topic: batch.topic,
    messages: batch.messages.map((message) => {
      const parent = propagation.extract(ROOT_CONTEXT, message.headers);
      const span = tracer().startSpan(
        `publish ${batch.topic}`,
        {
          kind: SpanKind.PRODUCER,
          attributes: {
            'messaging.system': 'kafka',
            'messaging.operation.type': 'send',
            'messaging.destination.name': batch.topic,
            'messaging.kafka.message.key': message.key,
            'messaging.message.id': message.headers['event-id'] ?? '',
          },
        },
        parent,
      );
      spans.push(span);
      const headers = { ...message.headers };
      propagation.inject(trace.setSpan(ROOT_CONTEXT, span), headers);
      return { ...message, headers };
    }),
  }));
  try {
    await publish(traced);
  } catch (error) {
    for (const span of spans) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
      span.end();
    }
    throw error;
  }
  for (const span of spans) span.end();
}
