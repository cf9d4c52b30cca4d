import { kafkaSecurityFromEnv } from '@app/config';
import { OrderCreatedV1 } from '@app/trading-events';
import { logLevel } from 'kafkajs';
import { KafkaOutboxPublisher, OutboxCommitNotifier, OutboxWriter } from '@outbox-inbox/outbox';
import { InMemoryOutboxPublisher } from '@outbox-inbox/outbox/testing';
import { percentile } from '../lib/results';
import { Bench, round, sleep, unsentCount, warmRelay } from './relay-bench-kit';
import { purged } from '../lib/purged';
import { orderCreated } from '@app/trading-test-kit';

export const STEADY_RATE = 1_000;
const STEADY_SECONDS = 10;
/** Runs so far: each run writes its own aggregates (a repeated event key is not a new row). */
let runs = 0;

/** Latencies in ms; `rate` is the write rate achieved; `commitP99` is the writer's own. */
export interface SteadyLatency {
  p50: number;
  p99: number;
  rate: number;
  commitP50: number;
  commitP99: number;
}

/**
 * Commit-to-publish latency: one event per transaction at a steady STEADY_RATE/s, one relay
 * woken by the commit. Latency = the broker's acknowledgement of the batch holding the event
 * minus the moment the writer's commit returned.
 */
export async function steadyLatency(bench: Bench): Promise<SteadyLatency> {
  runs += 1;
  await bench.dataSource.query(`UPDATE t_outbox SET status = 'SENT' WHERE id BETWEEN ? AND ?`, [
    bench.firstId,
    bench.lastId,
  ]);
  await purged(bench.dataSource);
  const committedAt = new Map<string, number>();
  const latencies: number[] = [];
  const kafkaPublisher = new KafkaOutboxPublisher(
    {
      brokers: bench.env.infra.kafkaBrokers,
      ...kafkaSecurityFromEnv(),
      clientId: 'bench-latency',
      logLevel: logLevel.NOTHING,
    },
    { requestTimeoutMs: 5_000, producerRetries: 3, topicCacheMs: 60_000 },
  );
  const timing = new InMemoryOutboxPublisher({
    forwardTo: kafkaPublisher,
    around: async (batches, deliver) => {
      await deliver();
      const now = performance.now();
      for (const m of batches.flatMap((b) => b.messages)) {
        const committed = committedAt.get(m.headers['event-key']);
        if (committed !== undefined) latencies.push(now - committed);
      }
    },
  });
  const notifier = new OutboxCommitNotifier();
  bench.dataSource.subscribers.push(notifier);
  const writer = new OutboxWriter(notifier);
  const relay = await warmRelay(bench, { publisher: timing, notifier, pollIntervalMs: 500 });
  relay.start();
  const total = STEADY_RATE * STEADY_SECONDS;
  const started = performance.now();
  const inFlight = new Set<Promise<void>>();
  const commitMs: number[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / STEADY_RATE;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const orderId = `steady${runs}-${i}`;
    const begun = performance.now();
    const write = bench.dataSource
      .transaction((manager) =>
        writer.add(manager, OrderCreatedV1, {
          aggregateId: orderId,
          aggregateVersion: 1,
          payload: orderCreated(orderId),
        }),
      )
      .then((envelope) => {
        const now = performance.now();
        committedAt.set(envelope.eventKey, now);
        commitMs.push(now - begun);
      });
    inFlight.add(write);
    void write.finally(() => inFlight.delete(write));
  }
  await Promise.all(inFlight);
  const rate = total / ((performance.now() - started) / 1000);
  while (latencies.length < total && (await unsentCount(bench.dataSource)) > 0) await sleep(10);
  await relay.stop();
  return {
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    rate,
    commitP50: round(percentile(commitMs, 50)),
    commitP99: round(percentile(commitMs, 99)),
  };
}
