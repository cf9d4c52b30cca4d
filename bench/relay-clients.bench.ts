/**
 * npm run bench:relay-clients: the relay on kafkajs (KafkaOutboxPublisher, the default) against
 * the relay on librdkafka (ConfluentOutboxPublisher, KAFKA_CLIENT=confluent), on one MariaDB and
 * one broker (the librdkafka mock unless KAFKA_BROKERS is set). For each client: the relay's
 * rate, the same client's publisher alone on the same messages in the relay's batch size
 * ("raw produce": no database), the first over the second, and this process's CPU per event
 * while the relay drains (librdkafka's threads included). Rounds alternate the clients; each
 * figure is the median of BENCH_ROUNDS (default 3).
 */
import 'reflect-metadata';
import { DEFAULT_RELAY_OPTIONS, KafkaOutboxPublisher, OutboxPublisher } from '@outbox-inbox/outbox';
import { ConfluentOutboxPublisher } from '@outbox-inbox/outbox/confluent';
import { openOutboxDatabase, startTestEnvironment } from '@outbox-inbox/test-kit';
import { logLevel } from 'kafkajs';
import { relayBenchSql } from './relay/relay-bench-sql';
import { Bench, EVENTS, log, relayRate, writeEvents } from './relay/relay-bench-kit';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CLIENTS = ['kafkajs', 'confluent'] as const;
type Client = (typeof CLIENTS)[number];

function publisherOf(client: Client, brokers: string[]): OutboxPublisher {
  const kafka = { brokers, clientId: `bench-${client}` };
  return client === 'kafkajs'
    ? new KafkaOutboxPublisher({ ...kafka, logLevel: logLevel.NOTHING }, DEFAULT_RELAY_OPTIONS)
    : new ConfluentOutboxPublisher({ ...kafka, logLevel: 0 }, DEFAULT_RELAY_OPTIONS);
}

/** Events/s of the client's publisher alone, on the bench's messages in the relay's batches. */
async function rawPublishRate(bench: Bench, client: Client): Promise<number> {
  const range = relayBenchSql(bench.dataSource).rowsInRange(bench.firstId, bench.lastId);
  const rows = (await bench.dataSource.query(range.sql, range.params)) as Array<{
    aggregate_id: string;
    payload: string;
    headers: string;
  }>;
  const messages = rows.map((r) => ({
    key: r.aggregate_id,
    value: r.payload,
    headers: JSON.parse(r.headers) as Record<string, string>,
  }));
  const publisher = publisherOf(client, bench.env.infra.kafkaBrokers);
  try {
    await publisher.publish([{ topic: bench.topic, messages: messages.slice(0, 1) }]);
    const started = process.hrtime.bigint();
    const batch = DEFAULT_RELAY_OPTIONS.batchSize;
    for (let i = 0; i < messages.length; i += batch) {
      await publisher.publish([{ topic: bench.topic, messages: messages.slice(i, i + batch) }]);
    }
    return messages.length / (Number(process.hrtime.bigint() - started) / 1e9);
  } finally {
    await publisher.disconnect();
  }
}

/** The relay's rate on the client, and this process's CPU milliseconds per event meanwhile. */
async function relayRound(bench: Bench, client: Client): Promise<[number, number]> {
  const cpu = process.cpuUsage();
  const rate = await relayRate(bench, 1, () => ({
    publisher: publisherOf(client, bench.env.infra.kafkaBrokers),
  }));
  const used = process.cpuUsage(cpu);
  return [rate, (used.user + used.system) / 1000 / EVENTS];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const env = await startTestEnvironment();
  const dataSource = await openOutboxDatabase((await env.createDatabase('bench_clients')).url, 20);
  try {
    const topic = await env.createTopic('bench.relay.clients', 6);
    const [firstId, lastId] = await writeEvents(dataSource, EVENTS);
    const bench: Bench = { env, dataSource, topic, firstId, lastId };
    const figures = new Map<string, number[]>();
    const note = (name: string, value: number) =>
      figures.set(name, [...(figures.get(name) ?? []), value]);
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? CLIENTS : [...CLIENTS].reverse();
      for (const client of order) {
        const [rate, cpuMs] = await relayRound(bench, client);
        const raw = await rawPublishRate(bench, client);
        note(`${client} relay`, rate);
        note(`${client} raw`, raw);
        note(`${client} relay/raw`, rate / raw);
        note(`${client} cpu`, cpuMs);
        log(
          `round ${round} ${client}: relay ${rate.toFixed(0)}/s, raw ${raw.toFixed(0)}/s, ` +
            `CPU ${(cpuMs * 1000).toFixed(0)} µs/event`,
        );
      }
    }
    for (const client of CLIENTS) {
      log(
        `${client}: relay ${median(figures.get(`${client} relay`)!).toFixed(0)} events/s, ` +
          `raw ${median(figures.get(`${client} raw`)!).toFixed(0)} events/s, ` +
          `relay/raw ${median(figures.get(`${client} relay/raw`)!).toFixed(2)}, ` +
          `CPU ${(median(figures.get(`${client} cpu`)!) * 1000).toFixed(0)} µs/event`,
      );
    }
  } finally {
    await dataSource.destroy();
    await env.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
