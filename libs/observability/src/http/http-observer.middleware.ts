import { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable, NestMiddleware } from '@nestjs/common';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  acceptCorrelationId,
  CORRELATION_HEADER,
  runWithCorrelation,
} from '../correlation/correlation-context';
import { HttpMetrics } from '../metrics/http-metrics';

type Request = IncomingMessage & {
  route?: { path?: unknown };
  baseUrl?: string;
  originalUrl?: string;
};

/**
 * Runs every request under its correlation id (the caller's `x-correlation-id`, or a new one,
 * echoed in the response) and a SERVER span continuing the caller's `traceparent`, and records
 * the request metrics once the response is sent. The route template (`/orders/:id`) names the
 * span and labels the metrics; a request no route matched is `unmatched`.
 */
@Injectable()
export class HttpObserverMiddleware implements NestMiddleware {
  constructor(private readonly metrics: HttpMetrics) {}

  use(req: Request, res: ServerResponse, next: (error?: unknown) => void): void {
    const started = performance.now();
    const correlationId = acceptCorrelationId(req.headers[CORRELATION_HEADER]);
    // Written back so that the request logger (pino-http) reads the same id.
    req.headers[CORRELATION_HEADER] = correlationId;
    res.setHeader(CORRELATION_HEADER, correlationId);

    const method = req.method ?? 'GET';
    const parent = propagation.extract(context.active(), req.headers);
    const span = trace.getTracer('@app/observability').startSpan(
      `${method}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': method,
          'url.path': pathOf(req.originalUrl ?? req.url),
          'correlation.id': correlationId,
        },
      },
      parent,
    );
    res.once('close', () => {
      const route = routeOf(req);
      const status = res.statusCode;
      this.metrics.record(method, route, status, (performance.now() - started) / 1000);
      span.updateName(`${method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), () => runWithCorrelation(correlationId, next));
  }
}

function routeOf(req: Request): string {
  const path = req.route?.path;
  if (typeof path !== 'string') return 'unmatched';
  return `${req.baseUrl ?? ''}${path}` || '/';
}

function pathOf(url: string | undefined): string {
  const value = url ?? '/';
  const end = value.indexOf('?');
  return end === -1 ? value : value.slice(0, end);
}
