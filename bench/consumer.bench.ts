// Inbox consumer throughput: events/s through the full inbox path (Kafka fetch, inbox row,
// version gate, a one-row business update, commit, offset commit) against the raw rate of the
// same two statements (inbox insert + business update) in one transaction, same concurrency,
// measured in the same run; and the same with batched mode (several events per transaction). Run with `npm run bench:consumer`; results in bench/results/consumer.json.
import 'reflect-metadata';
import { EventEnvelope, OrderPaidV1 } from '@app/contracts';
import { mysqlDataSourceOptions, openMysqlDataSource, runTransaction } from '@app/database';
import {
  InboxContext,
  InboxMetrics,
  InboxMigrations,
  InboxModule,
  InboxTransport,
  OnEvent,
} from '@app/inbox';
import { startTestEnvironment } from '@app/testing';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, Payload } from '@nestjs/microservices';
import { TypeOrmModule } from '@nestjs/typeorm';
import { logLevel } from 'kafkajs';
import { DataSource } from 'typeorm';
import { orderEvent, toMessage } from '../libs/inbox/test/fixtures/test-events';
import { BenchResult, percentile, writeResults } from './lib/results';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const AGGREGATES = 200;
const TARGET = 0.8;
const BATCH_SIZE = Number(process.env.BENCH_BATCH_SIZE ?? 50);
const BATCH_TARGET = 3;

const clock = { first: 0, last: 0 };

@Controller()
class BenchConsumer {
  @OnEvent(OrderPaidV1)
  async onPaid(@Payload() event: EventEnvelope, @Ctx() context: InboxContext): Promise<void> {
    if (clock.first === 0) clock.first = performance.now();
    await context.manager.query('UPDATE t_bench_account SET balance = balance + 1 WHERE id = ?', [
      event.aggregateId,
    ]);
  }
}

function median(values: number[]): number {
  return percentile(values, 50);
}

function makeEvents(): EventEnvelope[] {
  const perAggregate = Math.ceil(EVENTS / AGGREGATES);
  const events: EventEnvelope[] = [];
  for (let v = 1; v <= perAggregate; v++) {
    for (let a = 0; a < AGGREGATES && events.length < EVENTS; a++) {
      events.push(orderEvent('paid', `acc-${a}`, v));
    }
  }
  return events;
}

/** The baseline: the same two statements per event, one transaction each, CONCURRENCY workers. */
async function rawRate(
  dataSource: DataSource,
  events: EventEnvelope[],
  consumer: string,
): Promise<number> {
  // Like partitions: one worker per share of the aggregates, each in order.
  const lanes = Array.from({ length: CONCURRENCY }, () => [] as EventEnvelope[]);
  events.forEach((e) => lanes[Number(e.aggregateId.slice(4)) % CONCURRENCY].push(e));
  const started = performance.now();
  await Promise.all(
    lanes.map(async (lane) => {
      for (const e of lane) {
        await runTransaction(dataSource, async (manager) => {
          await manager.query(
            `INSERT INTO t_inbox (consumer, event_key, event_type, event_id, outcome, processed_at)
             VALUES (?, ?, ?, ?, 'applied', ?)`,
            [consumer, e.eventKey, e.eventType, e.eventId, new Date()],
          );
          await manager.query('UPDATE t_bench_account SET balance = balance + 1 WHERE id = ?', [
            e.aggregateId,
          ]);
        });
      }
    }),
  );
  return events.length / ((performance.now() - started) / 1_000);
}

async function inboxRate(
  databaseUrl: string,
  brokers: string[],
  topic: string,
  deadLetterTopic: string,
  consumer: string,
  batchSize: number,
): Promise<number> {
  clock.first = 0;
  @Module({
    imports: [
      TypeOrmModule.forRoot(
        mysqlDataSourceOptions({ url: databaseUrl, poolSize: CONCURRENCY + 2 }),
      ),
      InboxModule.forRoot({
        consumer,
        batchSize,
        kafka: { brokers, clientId: consumer, logLevel: logLevel.NOTHING, maxWaitTimeMs: 100 },
        topics: [topic],
        deadLetterTopic,
        partitionsConsumedConcurrently: CONCURRENCY,
        gapCheckIntervalMs: 0,
        pruneIntervalMs: 0,
      }),
    ],
    controllers: [BenchConsumer],
  })
  class BenchModule {}

  const app = await NestFactory.create(BenchModule, { logger: ['error'] });
  app.connectMicroservice({ strategy: app.get(InboxTransport) });
  const metrics = app.get(InboxMetrics);
  try {
    await app.startAllMicroservices();
    await app.init();
    while (metrics.outcomes.applied < EVENTS) await new Promise((r) => setTimeout(r, 5));
    clock.last = performance.now();
  } finally {
    await app.close();
  }
  // From the first handler call: the group join is start-up, not throughput.
  return EVENTS / ((clock.last - clock.first) / 1_000);
}

async function main(): Promise<void> {
  const env = await startTestEnvironment();
  try {
    const database = await env.createDatabase('bench_consumer');
    const dataSource = await openMysqlDataSource({
      url: database.url,
      migrations: InboxMigrations,
      poolSize: CONCURRENCY + 2,
    });
    await dataSource.runMigrations();
    await dataSource.query(
      'CREATE TABLE t_bench_account (id VARCHAR(64) PRIMARY KEY, balance BIGINT NOT NULL)',
    );
    await dataSource.query(
      `INSERT INTO t_bench_account (id, balance) VALUES ${Array.from(
        { length: AGGREGATES },
        (_, a) => `('acc-${a}', 0)`,
      ).join(',')}`,
    );
    const events = makeEvents();

    const topic = await env.createTopic('bench.consumer', CONCURRENCY);
    const deadLetterTopic = await env.createTopic('bench.consumer.dlq', 1);
    const producer = env.kafka.producer();
    await producer.connect();
    for (let i = 0; i < events.length; i += 500) {
      await producer.send({ topic, messages: events.slice(i, i + 500).map(toMessage) });
    }
    await producer.disconnect();

    // Rounds alternate raw, single and batched, and each figure is the median of its rounds:
    // the machine is shared, and load that comes and goes would otherwise favour one side.
    const brokers = env.infra.kafkaBrokers;
    const rates = { raw: [] as number[], single: [] as number[], batched: [] as number[] };
    for (let round = 1; round <= ROUNDS; round++) {
      rates.raw.push(await rawRate(dataSource, events, `raw-${round}`));
      rates.single.push(
        await inboxRate(database.url, brokers, topic, deadLetterTopic, `single-${round}`, 1),
      );
      rates.batched.push(
        await inboxRate(
          database.url,
          brokers,
          topic,
          deadLetterTopic,
          `batch-${round}`,
          BATCH_SIZE,
        ),
      );
    }
    const raw = median(rates.raw);
    const single = median(rates.single);
    const batched = median(rates.batched);
    console.log(JSON.stringify(rates));
    // Every run adds one to each event's account: a lost or doubled effect would show here.
    const balance = (await dataSource.query(
      'SELECT SUM(balance) AS total FROM t_bench_account',
    )) as Array<{ total: string }>;
    if (Number(balance[0].total) !== 3 * ROUNDS * EVENTS) {
      throw new Error(`expected ${3 * ROUNDS * EVENTS} updates in all, found ${balance[0].total}`);
    }
    await dataSource.destroy();

    const baseline = 'raw inbox insert + update, one transaction each, same concurrency';
    const results: BenchResult[] = [
      {
        metric: `inbox consumer, one transaction per event, median of ${ROUNDS} rounds of ${EVENTS} events, ${CONCURRENCY} partitions in parallel`,
        value: single,
        unit: 'events/s',
        baseline,
        baselineValue: raw,
        ratio: single / raw,
        target: `>= ${TARGET}x raw`,
        met: single / raw >= TARGET,
      },
      {
        metric: `inbox consumer, batched mode (${BATCH_SIZE} events per transaction), median of ${ROUNDS} rounds of ${EVENTS} events, ${CONCURRENCY} partitions in parallel`,
        value: batched,
        unit: 'events/s',
        baseline,
        baselineValue: raw,
        ratio: batched / raw,
        target: `>= ${BATCH_TARGET}x raw`,
        met: batched / raw >= BATCH_TARGET,
      },
    ];
    writeResults('consumer', results);
  } finally {
    await env.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
