import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** One span as the collector stores it; ids are lowercase hex. */
export interface CollectedSpan {
  service: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, unknown>;
  /** Start and end, epoch ms (fractional): where a trace's time goes. */
  startMs: number;
  endMs: number;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{
      spans?: Array<{
        name: string;
        kind: number;
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        attributes?: OtlpAttribute[];
        startTimeUnixNano?: string | number;
        endTimeUnixNano?: string | number;
      }>;
    }>;
  }>;
}

/**
 * A minimal OTLP/HTTP trace receiver (JSON encoding, what @opentelemetry/exporter-trace-otlp-http
 * sends): accepts POST /v1/traces on a loopback port and keeps every span it receives.
 */
export class OtlpCollector {
  readonly spans: CollectedSpan[] = [];
  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpCollector> {
    const collector: OtlpCollector = new OtlpCollector(
      createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          if (req.method === 'POST' && req.url === '/v1/traces') {
            collector.receive(JSON.parse(Buffer.concat(chunks).toString()) as OtlpRequest);
            res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
          } else {
            res.writeHead(404).end();
          }
        });
      }),
    );
    await new Promise<void>((resolve) => collector.server.listen(0, '127.0.0.1', resolve));
    return collector;
  }

  /** The base URL to put in OTEL_EXPORTER_OTLP_ENDPOINT. */
  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private receive(request: OtlpRequest): void {
    for (const resourceSpans of request.resourceSpans ?? []) {
      const resource = attributes(resourceSpans.resource?.attributes);
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            service: String(resource['service.name']),
            name: span.name,
            kind: span.kind,
            traceId: hex(span.traceId),
            spanId: hex(span.spanId),
            parentSpanId: hex(span.parentSpanId ?? ''),
            attributes: attributes(span.attributes),
            startMs: epochMs(span.startTimeUnixNano),
            endMs: epochMs(span.endTimeUnixNano),
          });
        }
      }
    }
  }
}

function attributes(list: OtlpAttribute[] = []): Record<string, unknown> {
  return Object.fromEntries(
    list.map(({ key, value }) => [
      key,
      value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue,
    ]),
  );
}

/** OTLP/JSON's nanoseconds since the epoch (a string: it outgrows a double) as fractional ms. */
function epochMs(nanos: string | number | undefined): number {
  if (nanos === undefined) return NaN;
  return Number(BigInt(nanos) / 1_000n) / 1_000;
}

/** OTLP/JSON carries ids as hex; tolerate base64 (the protobuf JSON mapping) as well. */
function hex(id: string): string {
  if (/^[0-9a-f]*$/i.test(id)) return id.toLowerCase();
  return Buffer.from(id, 'base64').toString('hex');
}
