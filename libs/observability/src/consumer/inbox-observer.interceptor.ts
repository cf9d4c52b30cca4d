import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import {
  Context,
  context,
  Link,
  propagation,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { EventEnvelope, EventHeader } from '@outbox-inbox/messaging';
import type { InboxBatchContext, InboxContext } from '@outbox-inbox/inbox';
import { Observable } from 'rxjs';
import { acceptCorrelationId, runWithCorrelation } from '../correlation/correlation-context';

/** One event's origin, as both kinds of inbox context give it. */
interface Origin {
  topic: string;
  partition: number;
  offset: string;
  headers: Record<string, string>;
}

/**
 * Runs each inbox handler under the event's correlation id and a CONSUMER span that continues
 * the trace from the Kafka headers (the relay's publish span; the envelope's own trace context
 * when the headers carry none), so every log line the handler writes carries both. A run of
 * several events (`@OnEventBatch`) gets one span that links to each event's trace, as
 * OpenTelemetry's messaging conventions do for batches, and the first event's correlation id.
 * Handlers of other transports and HTTP requests pass through untouched.
 */
@Injectable()
export class InboxObserverInterceptor implements NestInterceptor {
  private readonly logger = new Logger('InboxHandler');

  intercept(execution: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (execution.getType() !== 'rpc') return next.handle();
    const rpc = execution.switchToRpc();
    const delivery = rpc.getContext<unknown>();
    if (isInboxContext(delivery)) {
      const envelope = rpc.getData<Partial<EventEnvelope>>();
      if (!envelope?.eventType) return next.handle();
      return this.observe(next, [envelope], [delivery], delivery.consumer);
    }
    if (isInboxBatchContext(delivery)) {
      const envelopes = rpc.getData<Array<Partial<EventEnvelope>>>();
      if (!Array.isArray(envelopes) || !envelopes[0]?.eventType) return next.handle();
      return this.observe(next, envelopes, delivery.deliveries, delivery.consumer);
    }
    return next.handle();
  }

  private observe(
    next: CallHandler,
    envelopes: Array<Partial<EventEnvelope>>,
    origins: Origin[],
    consumer: string,
  ): Observable<unknown> {
    const [first, origin] = [envelopes[0], origins[0]];
    // The header passes the rule HTTP's header does, as in CorrelatedMessageScope.
    const header = origin.headers[EventHeader.correlationId];
    const correlationId =
      first.correlationId ??
      (header === undefined ? undefined : acceptCorrelationId(header)) ??
      first.eventKey ??
      '';
    const parents = envelopes.map((e, i) => parentContext(origins[i].headers, e));
    const single = envelopes.length === 1;
    const links: Link[] = single
      ? []
      : parents.flatMap((p) => {
          const spanContext = trace.getSpanContext(p);
          return spanContext ? [{ context: spanContext }] : [];
        });
    const parent = single ? parents[0] : ROOT_CONTEXT;
    const span = trace.getTracer('@app/observability').startSpan(
      `process ${first.eventType}`,
      {
        kind: SpanKind.CONSUMER,
        links,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.operation.type': 'process',
          'messaging.destination.name': origin.topic,
          'messaging.destination.partition.id': String(origin.partition),
          'messaging.consumer.group.name': consumer,
          'correlation.id': correlationId,
          ...(single
            ? {
                'messaging.kafka.offset': Number(origin.offset),
                'messaging.message.id': first.eventId ?? '',
              }
            : { 'messaging.batch.message_count': envelopes.length }),
        },
      },
      parent,
    );
    const started = performance.now();
    const what = single
      ? `${first.eventKey} from ${origin.topic}/${origin.partition}@${origin.offset}`
      : `${envelopes.length} events from ${origin.topic}/${origin.partition}@${origin.offset}..${origins[origins.length - 1].offset}`;
    return new Observable((subscriber) =>
      context.with(trace.setSpan(parent, span), () =>
        runWithCorrelation(correlationId, () =>
          next.handle().subscribe({
            next: (value) => subscriber.next(value),
            error: (error: unknown) => {
              fail(span, error);
              subscriber.error(error);
            },
            complete: () => {
              span.end();
              this.logger.debug(
                `handled ${what} in ${(performance.now() - started).toFixed(1)} ms`,
              );
              subscriber.complete();
            },
          }),
        ),
      ),
    );
  }
}

/*
 * The inbox's handler contexts, told by their shape: observability knows the inbox by its types
 * only (and a shape holds across two copies of the package, where instanceof would not).
 */
function isInboxContext(value: unknown): value is InboxContext {
  const c = value as Partial<InboxContext> | null;
  return (
    typeof c?.consumer === 'string' &&
    typeof c.topic === 'string' &&
    typeof c.offset === 'string' &&
    typeof c.headers === 'object' &&
    c.headers !== null
  );
}

function isInboxBatchContext(value: unknown): value is InboxBatchContext {
  const c = value as Partial<InboxBatchContext> | null;
  return typeof c?.consumer === 'string' && Array.isArray(c.deliveries);
}

function fail(span: Span, error: unknown): void {
  span.recordException(error as Error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
  span.end();
}

/** The trace context a message carries: its Kafka headers first, then its envelope. */
function parentContext(headers: Record<string, string>, envelope: Partial<EventEnvelope>): Context {
  if (headers[EventHeader.traceparent]) return propagation.extract(ROOT_CONTEXT, headers);
  if (envelope.trace?.traceparent) return propagation.extract(ROOT_CONTEXT, { ...envelope.trace });
  return ROOT_CONTEXT;
}
