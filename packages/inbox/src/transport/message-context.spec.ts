import { propagation, trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { messageContext } from './message-context';

describe('messageContext', () => {
  const provider = new NodeTracerProvider();
  provider.register();
  afterAll(() => provider.shutdown());
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const spanId = '00f067aa0ba902b7';

  it("continues the message's trace, and names no correlation id of its own", () => {
    const ctx = messageContext({
      traceparent: `00-${traceId}-${spanId}-01`,
      'correlation-id': 'parcel-flow-1',
    });
    expect(trace.getSpanContext(ctx)).toMatchObject({ traceId, spanId, isRemote: true });
    // The correlation id is observability's (an InboxMessageScope), not baggage set here.
    expect(propagation.getBaggage(ctx)).toBeUndefined();
  });

  it('is empty for a message without trace or correlation headers', () => {
    const ctx = messageContext({ 'event-id': 'e1' });
    expect(trace.getSpanContext(ctx)).toBeUndefined();
    expect(propagation.getBaggage(ctx)).toBeUndefined();
  });
});
