import { Context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';

/**
 * The OpenTelemetry context a message is settled in: the trace context (and any W3C baggage)
 * of its Kafka headers, so that every span and log line written while settling it (retries,
 * dead-lettering) belongs to the message's trace. A no-op while no OpenTelemetry SDK is
 * registered.
 */
export function messageContext(headers: Record<string, string>): Context {
  return propagation.extract(ROOT_CONTEXT, headers);
}
