/**
 * npm run bench:relay: the outbox relay against a naive relay (the article's pseudo-code: one
 * row at a time: select, claim, send, mark) and against raw kafkajs batch produce of the same
 * messages, on one MariaDB and one broker (the librdkafka mock unless KAFKA_BROKERS is set).
 * Also: 1, 2 and 3 relay instances; an empty table vs 1,000,000 SENT rows; commit-to-publish
 * latency at a steady 1,000 events/s. The machine is shared and noisy: read ratios, not rates.
 */
import 'reflect-metadata';
import { OrderCreatedV1 } from '@app/contracts';
import { startTestEnvironment, TestEnvironment } from '@app/testing';
import { Kafka, logLevel, Partitioners, Producer } from 'kafkajs';
import { DataSource } from 'typeorm';
import {
  CLAIM_DUE_NEW_SQL,
  DEFAULT_RELAY_OPTIONS,
  KafkaOutboxPublisher,
  OutboxCommitNotifier,
  OutboxPublisher,
  OutboxRelay,
  OutboxWriter,
  TopicBatch,
} from '@app/outbox';
import { openOutboxDatabase, orderCreated } from '../libs/outbox/test/outbox-test-kit';
import { insertSentHistory } from '../libs/outbox/test/sent-history';
import { BenchResult, percentile, writeResults } from './lib/results';

const EVENTS = 10_000;
const NAIVE_SECONDS = 8;
const STEADY_RATE = 1_000;
const STEADY_SECONDS = 10;
const SILENT = { log: () => undefined, warn: () => undefined, error: () => undefined };

interface Bench {
  env: TestEnvironment;
  dataSource: DataSource;
  topic: string;
  firstId: string;
  lastId: string;
}

async function main(): Promise<void> {
  const env = await startTestEnvironment();
  const dataSource = await openOutboxDatabase((await env.createDatabase('bench_relay')).url, 20);
  try {
    const topic = await env.createTopic('bench.relay', 6);
    const [firstId, lastId] = await writeEvents(dataSource, EVENTS);
    const bench: Bench = { env, dataSource, topic, firstId, lastId };
    const results = await measure(bench);
    writeResults('relay', results);
  } finally {
    await dataSource.destroy();
    await env.stop();
  }
}

async function measure(bench: Bench): Promise<BenchResult[]> {
  const raw = await rawProduceRate(bench);
  log(`raw kafkajs batch produce: ${raw.toFixed(0)} msg/s`);
  const naive = await naiveRelayRate(bench);
  log(`naive relay: ${naive.toFixed(0)} events/s`);
  const relay1 = await relayRate(bench, 1);
  log(`relay x1: ${relay1.toFixed(0)} events/s`);
  const relay2 = await relayRate(bench, 2);
  log(`relay x2: ${relay2.toFixed(0)} events/s`);
  const relay3 = await relayRate(bench, 3);
  log(`relay x3: ${relay3.toFixed(0)} events/s`);

  const latency = await steadyLatency(bench);
  log(
    `commit-to-publish at ${latency.rate.toFixed(0)} events/s: p50 ${latency.p50} ms, p99 ${latency.p99} ms`,
  );

  // The history goes in last: the measurements above run on a table without it.
  const started = Date.now();
  await insertSentHistory(bench.dataSource, 1_000_000);
  await bench.dataSource.query('ANALYZE TABLE t_outbox');
  await settle(bench.dataSource);
  log(`inserted 1,000,000 SENT rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await resetToNew(bench);
  log(`claim plan with 1,000,000 SENT rows: ${JSON.stringify(await claimPlan(bench))}`);
  const relayHistory = await relayRate(bench, 1);
  log(`relay x1 with 1,000,000 SENT rows: ${relayHistory.toFixed(0)} events/s`);

  const rate = 'events/s';
  return [
    result(
      'relay throughput vs naive',
      relay1,
      rate,
      'naive relay (article pseudo-code)',
      naive,
      '>= 30x naive',
      relay1 / naive >= 30,
    ),
    result(
      'relay throughput vs raw produce',
      relay1,
      rate,
      'raw kafkajs batch produce',
      raw,
      '>= 0.4x raw produce',
      relay1 / raw >= 0.4,
    ),
    result(
      '2 relay instances',
      relay2,
      rate,
      '1 relay instance',
      relay1,
      'informational (>= 0.8x: no collapse under contention)',
      relay2 / relay1 >= 0.8,
    ),
    result(
      '3 relay instances',
      relay3,
      rate,
      '1 relay instance',
      relay1,
      'informational (>= 0.8x: no collapse under contention)',
      relay3 / relay1 >= 0.8,
    ),
    result(
      'relay with 1,000,000 SENT rows',
      relayHistory,
      rate,
      'relay, empty table',
      relay1,
      '>= 0.9x empty table',
      relayHistory / relay1 >= 0.9,
    ),
    {
      metric: `commit-to-publish p99 at ${STEADY_RATE} events/s`,
      value: latency.p99,
      unit: 'ms',
      baseline: 'target',
      baselineValue: 50,
      ratio: 50 / latency.p99,
      target: '< 50 ms (ratio = 50 / value, higher is better)',
      met: latency.p99 < 50,
    },
    {
      metric: `commit-to-publish p50 at ${STEADY_RATE} events/s`,
      value: latency.p50,
      unit: 'ms',
      baseline: 'p99 target',
      baselineValue: 50,
      ratio: 50 / latency.p50,
      target: 'informational',
      met: true,
    },
  ];
}

function result(
  metric: string,
  value: number,
  unit: string,
  baseline: string,
  baselineValue: number,
  target: string,
  met: boolean,
): BenchResult {
  return {
    metric,
    value,
    unit,
    baseline,
    baselineValue,
    ratio: value / baselineValue,
    target,
    met,
  };
}

/** Writes `count` events, 100 per transaction, one version each; returns the id range. */
async function writeEvents(dataSource: DataSource, count: number): Promise<[string, string]> {
  const writer = new OutboxWriter();
  for (let i = 0; i < count; i += 100) {
    await dataSource.transaction(async (manager) => {
      for (let j = i; j < Math.min(count, i + 100); j++) {
        await writer.add(manager, OrderCreatedV1, {
          aggregateId: `bench${j}`,
          aggregateVersion: 1,
          payload: orderCreated(`bench${j}`),
        });
      }
    });
  }
  const [range] = (await dataSource.query(
    'SELECT MIN(id) AS lo, MAX(id) AS hi FROM t_outbox',
  )) as Array<{
    lo: string;
    hi: string;
  }>;
  return [range.lo, range.hi];
}

/**
 * Waits (at most 60 s) until InnoDB has flushed most pages the bulk insert dirtied, so the
 * measurement sees a table that holds a million SENT rows, not a server busy writing them.
 */
async function settle(dataSource: DataSource): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const rows = (await dataSource.query(
      `SHOW GLOBAL STATUS WHERE Variable_name IN
         ('Innodb_buffer_pool_pages_dirty', 'Innodb_buffer_pool_pages_total')`,
    )) as Array<{ Variable_name: string; Value: string }>;
    const value = (name: string) => Number(rows.find((r) => r.Variable_name === name)?.Value ?? 0);
    if (value('Innodb_buffer_pool_pages_dirty') < value('Innodb_buffer_pool_pages_total') * 0.02) {
      return;
    }
    await sleep(500);
  }
}

async function resetToNew(bench: Bench): Promise<void> {
  await bench.dataSource.query(
    `UPDATE t_outbox SET status = 'NEW', next_retry_at = UTC_TIMESTAMP(3), lease_owner = NULL,
       lease_token = NULL, lease_until = NULL, retry_count = 0
     WHERE id BETWEEN ? AND ?`,
    [bench.firstId, bench.lastId],
  );
}

async function unsentCount(dataSource: DataSource): Promise<number> {
  const [row] = (await dataSource.query(
    `SELECT COUNT(*) AS n FROM t_outbox WHERE status IN ('NEW', 'SENDING')`,
  )) as Array<{ n: string }>;
  return Number(row.n);
}

/** A relay whose producer is connected and topic metadata loaded, so timings exclude start-up. */
async function warmRelay(
  bench: Bench,
  extra: Partial<ConstructorParameters<typeof OutboxRelay>[0]> = {},
): Promise<OutboxRelay> {
  const publisher =
    extra.publisher ??
    new KafkaOutboxPublisher(
      {
        brokers: bench.env.infra.kafkaBrokers,
        clientId: 'bench-relay',
        logLevel: logLevel.NOTHING,
      },
      DEFAULT_RELAY_OPTIONS,
    );
  await publisher.missingTopics([bench.topic]);
  await publisher.publish([
    { topic: bench.topic, messages: [{ key: 'warm-up', value: '{}', headers: {} }] },
  ]);
  return new OutboxRelay({
    dataSource: bench.dataSource,
    publisher,
    topicFor: () => bench.topic,
    pollIntervalMs: 20,
    logger: SILENT,
    ...extra,
  });
}

/** Events/s for `instances` relays to drain the EVENTS rows. */
async function relayRate(bench: Bench, instances: number): Promise<number> {
  await resetToNew(bench);
  const relays = await Promise.all(Array.from({ length: instances }, () => warmRelay(bench)));
  const started = process.hrtime.bigint();
  relays.forEach((r) => r.start());
  while ((await unsentCount(bench.dataSource)) > 0) await sleep(5);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await Promise.all(relays.map((r) => r.stop()));
  return EVENTS / seconds;
}

function benchProducer(kafka: Kafka): Producer {
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
}

/** The same messages straight from memory to Kafka, in batches of the relay's batch size. */
async function rawProduceRate(bench: Bench): Promise<number> {
  const rows = (await bench.dataSource.query(
    'SELECT aggregate_id, payload, headers FROM t_outbox WHERE id BETWEEN ? AND ? ORDER BY id',
    [bench.firstId, bench.lastId],
  )) as Array<{ aggregate_id: string; payload: string; headers: string }>;
  const messages = rows.map((r) => ({
    key: r.aggregate_id,
    value: r.payload,
    headers: JSON.parse(r.headers),
  }));
  const producer = benchProducer(quietKafka(bench));
  await producer.connect();
  try {
    await producer.send({ topic: bench.topic, acks: -1, messages: messages.slice(0, 1) });
    const started = process.hrtime.bigint();
    for (let i = 0; i < messages.length; i += 200) {
      await producer.sendBatch({
        acks: -1,
        topicMessages: [{ topic: bench.topic, messages: messages.slice(i, i + 200) }],
      });
    }
    return messages.length / (Number(process.hrtime.bigint() - started) / 1e9);
  } finally {
    await producer.disconnect();
  }
}

/**
 * The article's relay, literally: select one due NEW row, claim it with
 * `UPDATE … SET status='SENDING' WHERE id=? AND status='NEW'`, send it, mark it SENT. Runs for
 * NAIVE_SECONDS and leaves the rest of the rows NEW.
 */
async function naiveRelayRate(bench: Bench): Promise<number> {
  await resetToNew(bench);
  const producer = benchProducer(quietKafka(bench));
  await producer.connect();
  try {
    await producer.send({
      topic: bench.topic,
      acks: -1,
      messages: [{ key: 'warm-up', value: '{}' }],
    });
    let sent = 0;
    const started = process.hrtime.bigint();
    const deadline = Date.now() + NAIVE_SECONDS * 1000;
    while (Date.now() < deadline) {
      const [row] = (await bench.dataSource.query(
        `SELECT id, aggregate_id, payload, headers FROM t_outbox
         WHERE status = 'NEW' AND next_retry_at <= UTC_TIMESTAMP(3) ORDER BY next_retry_at LIMIT 1`,
      )) as Array<{ id: string; aggregate_id: string; payload: string; headers: string }>;
      if (!row) break;
      const claim = (await bench.dataSource.query(
        `UPDATE t_outbox SET status = 'SENDING', updated_at = UTC_TIMESTAMP(3) WHERE id = ? AND status = 'NEW'`,
        [row.id],
      )) as { affectedRows: number };
      if (claim.affectedRows !== 1) continue;
      await producer.send({
        topic: bench.topic,
        acks: -1,
        messages: [{ key: row.aggregate_id, value: row.payload, headers: JSON.parse(row.headers) }],
      });
      await bench.dataSource.query(
        `UPDATE t_outbox SET status = 'SENT', updated_at = UTC_TIMESTAMP(3) WHERE id = ?`,
        [row.id],
      );
      sent += 1;
    }
    return sent / (Number(process.hrtime.bigint() - started) / 1e9);
  } finally {
    await producer.disconnect();
  }
}

async function claimPlan(bench: Bench): Promise<unknown> {
  const [plan] = (await bench.dataSource.query(`EXPLAIN ${CLAIM_DUE_NEW_SQL}`, [200])) as Array<
    Record<string, unknown>
  >;
  return { type: plan.type, key: plan.key, rows: plan.rows, Extra: plan.Extra };
}

/**
 * Commit-to-publish latency: one event per transaction at a steady STEADY_RATE/s, one relay
 * woken by the commit. Latency = the broker's acknowledgement of the batch holding the event
 * minus the moment the writer's commit returned.
 */
async function steadyLatency(bench: Bench): Promise<{ p50: number; p99: number; rate: number }> {
  await bench.dataSource.query(`UPDATE t_outbox SET status = 'SENT' WHERE id BETWEEN ? AND ?`, [
    bench.firstId,
    bench.lastId,
  ]);
  const committedAt = new Map<string, number>();
  const latencies: number[] = [];
  const kafkaPublisher = new KafkaOutboxPublisher(
    {
      brokers: bench.env.infra.kafkaBrokers,
      clientId: 'bench-latency',
      logLevel: logLevel.NOTHING,
    },
    { requestTimeoutMs: 5_000, producerRetries: 3, topicCacheMs: 60_000 },
  );
  const timing: OutboxPublisher = {
    missingTopics: (topics) => kafkaPublisher.missingTopics(topics),
    disconnect: () => kafkaPublisher.disconnect(),
    publish: async (batches: TopicBatch[]) => {
      await kafkaPublisher.publish(batches);
      const now = performance.now();
      for (const m of batches.flatMap((b) => b.messages)) {
        const committed = committedAt.get(m.headers['event-key']);
        if (committed !== undefined) latencies.push(now - committed);
      }
    },
  };
  const notifier = new OutboxCommitNotifier();
  bench.dataSource.subscribers.push(notifier);
  const writer = new OutboxWriter(notifier);
  const relay = await warmRelay(bench, { publisher: timing, notifier, pollIntervalMs: 500 });
  relay.start();
  const total = STEADY_RATE * STEADY_SECONDS;
  const started = performance.now();
  const inFlight = new Set<Promise<void>>();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / STEADY_RATE;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const orderId = `steady${i}`;
    const write = bench.dataSource
      .transaction((manager) =>
        writer.add(manager, OrderCreatedV1, {
          aggregateId: orderId,
          aggregateVersion: 1,
          payload: orderCreated(orderId),
        }),
      )
      .then((envelope) => void committedAt.set(envelope.eventKey, performance.now()));
    inFlight.add(write);
    void write.finally(() => inFlight.delete(write));
  }
  await Promise.all(inFlight);
  const rate = total / ((performance.now() - started) / 1000);
  while (latencies.length < total && (await unsentCount(bench.dataSource)) > 0) await sleep(10);
  await relay.stop();
  return { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)), rate };
}

function quietKafka(bench: Bench): Kafka {
  return new Kafka({
    clientId: 'bench-raw',
    brokers: bench.env.infra.kafkaBrokers,
    logLevel: logLevel.NOTHING,
  });
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function log(line: string): void {
  process.stdout.write(`${new Date().toISOString()} ${line}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});
