import { Counter, Histogram } from 'prom-client';
import { MetricsRegistry } from './metrics-registry';

/** Labels of the HTTP request metrics; `route` is the route template, never the raw path. */
export type HttpLabels = 'method' | 'route' | 'status';

/** Request count and duration by method, route template and status code. */
export class HttpMetrics {
  readonly requests: Counter<HttpLabels>;
  readonly duration: Histogram<HttpLabels>;

  constructor(registry: MetricsRegistry) {
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route template and status code',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to response, by method, route template and status code',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
  }

  record(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.duration.observe(labels, seconds);
  }
}
