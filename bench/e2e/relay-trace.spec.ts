import { CollectedSpan } from '../../test/e2e/otlp-collector';
import { relayTrace } from './relay-trace';

const span = (
  service: string,
  kind: number,
  traceId: string,
  spanId: string,
  startMs: number,
  endMs: number,
  extra: Partial<CollectedSpan> = {},
): CollectedSpan => ({
  service,
  name: `${service} ${kind}`,
  kind,
  traceId,
  spanId,
  parentSpanId: '',
  attributes: {},
  startMs,
  endMs,
  ...extra,
});

/** One order's callback, its OrderPaid publish and its booking. */
function order(
  id: string,
  times: { callback: [number, number]; publish: [number, number]; booked: [number, number] },
): CollectedSpan[] {
  const trace = `trace-${id}`;
  return [
    span('order-service', 2, trace, `s-${id}`, ...times.callback),
    span('order-service', 4, trace, `p-${id}`, ...times.publish, {
      attributes: { 'messaging.kafka.message.key': id },
    }),
    span('accounting-service', 5, trace, `c-${id}`, ...times.booked, { parentSpanId: `p-${id}` }),
  ];
}

describe('relayTrace', () => {
  it("splits each order's path and tells a wait behind the batch on the wire from the rest", () => {
    const spans = [
      // Order 1 alone in a batch, sent from 110 to 130.
      ...order('1', { callback: [90, 100], publish: [110, 130], booked: [150, 160] }),
      // Order 2 committed at 120, while order 1's batch was on the wire; its batch starts at 135.
      ...order('2', { callback: [115, 120], publish: [135, 140], booked: [170, 175] }),
      // An earlier event of order 2 (its OrderPaymentStarted) in another trace: not OrderPaid.
      span('order-service', 4, 'trace-old', 'p-old', 10, 12, {
        attributes: { 'messaging.kafka.message.key': '2' },
      }),
    ];

    const trace = relayTrace(spans, ['1', '2']);

    expect(trace.orders).toBe(2);
    expect(trace.toSend.max).toBe(15);
    expect(trace.behindBatchOnWire.max).toBe(10);
    expect(trace.afterBatchOnWire.count).toBe(2);
    expect(trace.afterBatchOnWire.max).toBe(10);
    expect(trace.send.max).toBe(20);
    expect(trace.delivery.max).toBe(30);
    expect(trace.batchSize.max).toBe(1);
    expect(trace.batchGap.max).toBe(5);
  });

  it('counts only orders whose whole path was traced', () => {
    const spans = order('1', { callback: [0, 1], publish: [2, 3], booked: [4, 5] }).slice(0, 2);

    expect(relayTrace(spans, ['1']).orders).toBe(0);
  });
});
