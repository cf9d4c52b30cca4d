import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

let provider: NodeTracerProvider | undefined;

/**
 * Registers the OpenTelemetry SDK for this process: the AsyncLocalStorage context manager and
 * the W3C trace-context and baggage propagators, so trace context flows from requests into
 * outbox rows and from Kafka headers into consumers. Spans are exported only when
 * OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set: then by OTLP over
 * HTTP/JSON, batched (OTEL_BSP_* tune the batching). Call once, before the app is created;
 * later calls return the provider already registered.
 */
export function startTracing(
  serviceName: string,
  env: NodeJS.ProcessEnv = process.env,
  processors: SpanProcessor[] = [],
): NodeTracerProvider {
  if (provider) return provider;
  const exporting = Boolean(
    env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
  );
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: env.OTEL_SERVICE_NAME || serviceName }),
    spanProcessors: [
      ...(exporting ? [new BatchSpanProcessor(new OTLPTraceExporter())] : []),
      ...processors,
    ],
  });
  provider.register();
  return provider;
}

/** Exports the spans still buffered (at shutdown, so the last ones are not lost). */
export async function flushTracing(): Promise<void> {
  await provider?.forceFlush();
}
