import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import {
  Context,
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { EventEnvelope, EventHeader } from '@app/contracts';
import { InboxContext } from '@app/inbox';
import { Observable } from 'rxjs';
import { runWithCorrelation } from '../correlation/correlation-context';

/**
 * Runs each inbox handler under the event's correlation id and a CONSUMER span that continues
 * the trace from the Kafka headers (the relay's publish span; the envelope's own trace context
 * when the headers carry none), so every log line the handler writes carries both. Handlers of
 * other transports and HTTP requests pass through untouched.
 */
@Injectable()
export class InboxObserverInterceptor implements NestInterceptor {
  private readonly logger = new Logger('InboxHandler');

  intercept(execution: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (execution.getType() !== 'rpc') return next.handle();
    const rpc = execution.switchToRpc();
    const delivery = rpc.getContext<unknown>();
    const envelope = rpc.getData<Partial<EventEnvelope>>();
    if (!(delivery instanceof InboxContext) || !envelope?.eventType) return next.handle();

    const correlationId =
      envelope.correlationId ?? delivery.headers[EventHeader.correlationId] ?? envelope.eventKey;
    const parent = parentContext(delivery.headers, envelope);
    const span = trace.getTracer('@app/observability').startSpan(
      `process ${envelope.eventType}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.operation.type': 'process',
          'messaging.destination.name': delivery.topic,
          'messaging.destination.partition.id': String(delivery.partition),
          'messaging.kafka.offset': Number(delivery.offset),
          'messaging.consumer.group.name': delivery.consumer,
          'messaging.message.id': envelope.eventId ?? '',
          'correlation.id': correlationId ?? '',
        },
      },
      parent,
    );
    const started = performance.now();
    const active = trace.setSpan(parent, span);
    return new Observable((subscriber) =>
      context.with(active, () =>
        runWithCorrelation(correlationId ?? '', () =>
          next.handle().subscribe({
            next: (value) => subscriber.next(value),
            error: (error: unknown) => {
              span.recordException(error as Error);
              span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
              span.end();
              subscriber.error(error);
            },
            complete: () => {
              span.end();
              this.logger.debug(
                `handled ${envelope.eventKey} from ${delivery.topic}/${delivery.partition}@${delivery.offset} in ${(performance.now() - started).toFixed(1)} ms`,
              );
              subscriber.complete();
            },
          }),
        ),
      ),
    );
  }
}

/** The trace context a message carries: its Kafka headers first, then its envelope. */
function parentContext(headers: Record<string, string>, envelope: Partial<EventEnvelope>): Context {
  if (headers[EventHeader.traceparent]) return propagation.extract(ROOT_CONTEXT, headers);
  if (envelope.trace?.traceparent) return propagation.extract(ROOT_CONTEXT, { ...envelope.trace });
  return ROOT_CONTEXT;
}
