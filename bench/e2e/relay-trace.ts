import { CollectedSpan } from '../../test/e2e/otlp-collector';
import { spread, Spread } from '../lib/stats';

/** OTLP span kinds. */
const SERVER = 2;
const PRODUCER = 4;
const CONSUMER = 5;
/** PRODUCER spans of one batch start within this of each other (one loop over the batch). */
const SAME_BATCH_MS = 1;

/**
 * Where an OrderPaid waits between the callback and its payment journal, from the services'
 * spans (BENCH_E2E_TRACE): per order, the callback's SERVER span, the relay's PRODUCER span of
 * OrderPaid (started as its batch goes to the producer, ended when Kafka acknowledged it) and
 * the accounting-service's CONSUMER span under it. ms.
 */
export interface RelayTrace {
  orders: number;
  /** The callback's SERVER span: HMAC check, validation, the transaction and its commit. */
  callback: Spread;
  /** Callback answered → its batch handed to the producer: wake-up, claim, waiting behind batches. */
  toSend: Spread;
  /** Of `toSend`: waiting for the batch that was on the wire at the commit to be acknowledged. */
  behindBatchOnWire: Spread;
  /** Of `toSend`: from the later of the commit and that batch's ack to its own batch's start. */
  afterBatchOnWire: Spread;
  /** The PRODUCER span: the batch on the wire until Kafka acknowledged it. */
  send: Spread;
  /** Acknowledged → the accounting-service's CONSUMER span starts: broker and fetch. */
  delivery: Spread;
  /** The accounting-service's CONSUMER span: inbox, gate and booking. */
  booking: Spread;
  /** Every batch of the order-service's relay in the window: messages per batch. */
  batchSize: Spread;
  /** Previous batch acknowledged → next batch started (outcome write, claim, and idle time). */
  batchGap: Spread;
}

interface Batch {
  start: number;
  end: number;
  size: number;
}

/** The relay trace of `orderIds` (whose OrderPaid was the last event of their aggregates). */
export function relayTrace(spans: CollectedSpan[], orderIds: string[]): RelayTrace {
  const byTrace = new Map<string, CollectedSpan[]>();
  for (const span of spans) {
    const list = byTrace.get(span.traceId);
    if (list) list.push(span);
    else byTrace.set(span.traceId, [span]);
  }
  const relayed = spans.filter((s) => s.service === 'order-service' && s.kind === PRODUCER);
  const batches = batchesOf(relayed);
  const lastProduced = new Map<string, CollectedSpan>();
  for (const span of relayed) {
    const key = String(span.attributes['messaging.kafka.message.key']);
    const seen = lastProduced.get(key);
    if (!seen || seen.startMs < span.startMs) lastProduced.set(key, span);
  }
  const parts = {
    callback: [] as number[],
    toSend: [] as number[],
    behind: [] as number[],
    after: [] as number[],
    send: [] as number[],
    delivery: [] as number[],
    booking: [] as number[],
  };
  const window = { from: Infinity, to: -Infinity };
  for (const id of orderIds) {
    const produced = lastProduced.get(id);
    if (!produced) continue;
    const trace = byTrace.get(produced.traceId) ?? [];
    const callback = trace.find((s) => s.service === 'order-service' && s.kind === SERVER);
    const booked = trace.find(
      (s) =>
        s.service === 'accounting-service' &&
        s.kind === CONSUMER &&
        s.parentSpanId === produced.spanId,
    );
    if (!callback || !booked) continue;
    window.from = Math.min(window.from, callback.startMs);
    window.to = Math.max(window.to, booked.endMs);
    const committed = callback.endMs;
    const onWire = batches.find((b) => b.start <= committed && committed < b.end);
    const waitedFor =
      onWire && onWire.start < produced.startMs - SAME_BATCH_MS ? onWire.end : committed;
    parts.callback.push(callback.endMs - callback.startMs);
    parts.toSend.push(produced.startMs - committed);
    parts.behind.push(waitedFor - committed);
    parts.after.push(produced.startMs - waitedFor);
    parts.send.push(produced.endMs - produced.startMs);
    parts.delivery.push(booked.startMs - produced.endMs);
    parts.booking.push(booked.endMs - booked.startMs);
  }
  const inWindow = batches.filter((b) => b.start >= window.from && b.start <= window.to);
  const gaps = inWindow.slice(1).map((b, i) => b.start - inWindow[i].end);
  return {
    orders: parts.callback.length,
    callback: spread(parts.callback),
    toSend: spread(parts.toSend),
    behindBatchOnWire: spread(parts.behind),
    afterBatchOnWire: spread(parts.after),
    send: spread(parts.send),
    delivery: spread(parts.delivery),
    booking: spread(parts.booking),
    batchSize: spread(inWindow.map((b) => b.size)),
    batchGap: spread(gaps.filter((gap) => gap >= 0)),
  };
}

/** The relay's batches: PRODUCER spans that started together. */
function batchesOf(produced: CollectedSpan[]): Batch[] {
  const sorted = [...produced].sort((a, b) => a.startMs - b.startMs);
  const batches: Batch[] = [];
  for (const span of sorted) {
    const last = batches[batches.length - 1];
    if (last && span.startMs - last.start <= SAME_BATCH_MS) {
      last.size += 1;
      last.end = Math.max(last.end, span.endMs);
    } else {
      batches.push({ start: span.startMs, end: span.endMs, size: 1 });
    }
  }
  return batches;
}
