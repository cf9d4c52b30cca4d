import { TraceContext } from './envelope';

/** A message as it leaves for the broker: the trace context travels in its headers. */
export interface OutgoingMessage {
  key: string;
  headers: Record<string, string>;
}

/** Messages for one topic, in send order. */
export interface OutgoingBatch<M extends OutgoingMessage = OutgoingMessage> {
  topic: string;
  messages: M[];
}

/**
 * How a message's trace travels, in one place, for every package that moves messages: the
 * outbox captures the trace context of the request that writes an event and publishes it in a
 * PRODUCER span; the inbox settles each message received in the context its headers carry.
 * OutboxModule, createOutboxRelay, OutboxWriter and InboxModule take one as `tracing`; the
 * default, openTelemetryTracing, uses OpenTelemetry's global API (no-ops until an SDK is
 * registered).
 */
export interface MessageTracing {
  /** The trace context to store with an event written now; undefined outside a trace. */
  capture(): TraceContext | undefined;
  /**
   * Runs `send` with the batches' messages each in a PRODUCER span, a child of the trace
   * context its headers carry, and those headers rewritten to name the span (so consumers
   * continue from it). Spans end when `send` settles; a failed send marks them as errors and
   * rethrows. `batches` themselves are not changed.
   */
  publish<M extends OutgoingMessage>(
    batches: Array<OutgoingBatch<M>>,
    send: (traced: Array<OutgoingBatch<M>>) => Promise<void>,
  ): Promise<void>;
  /** Runs `settle` for a received message in the trace context its headers carry. */
  receive<T>(headers: Readonly<Record<string, string>>, settle: () => T): T;
}
