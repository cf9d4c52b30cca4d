import { EventHeader } from '@outbox-inbox/messaging';
import { Context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';

/** The baggage entry naming the business flow a message belongs to (its correlation id). */
export const CORRELATION_BAGGAGE = 'correlation.id';

/**
 * The OpenTelemetry context a message is settled in: the trace context of its Kafka headers
 * and its correlation id as baggage, so that every log line written while settling it (retries,
 * dead-lettering) can name both. A no-op while no OpenTelemetry SDK is registered.
 */
export function messageContext(headers: Record<string, string>): Context {
  const extracted = propagation.extract(ROOT_CONTEXT, headers);
  const correlationId = headers[EventHeader.correlationId];
  if (!correlationId) return extracted;
  const baggage = propagation.getBaggage(extracted) ?? propagation.createBaggage();
  return propagation.setBaggage(
    extracted,
    baggage.setEntry(CORRELATION_BAGGAGE, { value: correlationId }),
  );
}
