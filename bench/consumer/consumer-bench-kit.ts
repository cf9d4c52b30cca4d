import { kafkaSecurityFromEnv } from '@app/config';
import { EventEnvelope } from '@outbox-inbox/messaging';
import { OrderPaidV1, tradingEventRegistry } from '@app/trading-events';
import { runTransaction } from '@outbox-inbox/database';
import { mysqlDataSourceOptions } from '@outbox-inbox/database/mysql';
import { postgresDataSourceOptions } from '@outbox-inbox/database/postgres';
import {
  InboxBatchContext,
  InboxContext,
  InboxModule,
  InboxTransport,
  OnEvent,
  OnEventBatch,
  resolveInboxOptions,
} from '@outbox-inbox/inbox';
import { InboxHooksModule } from '@outbox-inbox/inbox/testing';
import { TestEnvironment, toMessage, testKafkaConfig } from '@outbox-inbox/test-kit';
import { orderEvent } from '@app/trading-test-kit';
import { Controller, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, Payload } from '@nestjs/microservices';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { DataSource } from 'typeorm';
import { consumerBenchSql } from './consumer-bench-sql';

// 4,000: with fewer, a batched run lasts well under a second and the partitions' staggered
// first fetches (up to ~80 ms apart) weigh on the result.
export const EVENTS = Number(process.env.BENCH_EVENTS ?? 4_000);
export const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
export const AGGREGATES = 200;

/** The business update every handler makes: one row, the event's account. */
async function bookPayment(event: EventEnvelope, context: InboxContext): Promise<void> {
  const { sql, params } = consumerBenchSql(context.manager).bookPayment(event.aggregateId);
  await context.manager.query(sql, params);
}

/** The handler with the version gate on (the default). */
@Controller()
export class GatedConsumer {
  @OnEvent(OrderPaidV1)
  async onPaid(@Payload() event: EventEnvelope, @Ctx() context: InboxContext): Promise<void> {
    await bookPayment(event, context);
  }
}

/** The same handler opted out of the version gate (OnEvent versionGate: false). */
@Controller()
export class UngatedConsumer {
  @OnEvent(OrderPaidV1, { versionGate: false })
  async onPaid(@Payload() event: EventEnvelope, @Ctx() context: InboxContext): Promise<void> {
    await bookPayment(event, context);
  }
}

/**
 * The same update per event for a run of events (`@OnEventBatch`): one statement per event, as
 * in bookPayment, all sent in one round trip (the pool has `multipleStatements` on).
 */
@Controller()
export class RunConsumer {
  @OnEventBatch(OrderPaidV1)
  async onPaid(
    @Payload() events: EventEnvelope[],
    @Ctx() context: InboxBatchContext,
  ): Promise<void> {
    await context.manager.query(
      events.map(() => 'UPDATE t_bench_account SET balance = balance + 1 WHERE id = ?').join(';'),
      events.map((e) => e.aggregateId),
    );
  }
}

const partitioner = Partitioners.DefaultPartitioner();

/** The partition (of CONCURRENCY) the producer's default partitioner gives `key`. */
export function partitionOf(key: string): number {
  return partitioner({
    topic: 'bench',
    partitionMetadata: Array.from({ length: CONCURRENCY }, (_, partitionId) => ({
      partitionId,
      leader: 0,
      replicas: [0],
      isr: [0],
      offlineReplicas: [],
      partitionErrorCode: 0,
    })),
    message: { key, value: null },
  });
}

/**
 * AGGREGATES account ids, as many in each partition: with ids hashed at random one partition
 * holds a third more events than another, and the inbox run then measures that partition
 * while the raw baseline's lanes are even.
 */
export const ACCOUNTS: string[] = (() => {
  const perPartition = Array.from({ length: CONCURRENCY }, () => [] as string[]);
  for (let n = 0; perPartition.some((ids) => ids.length < AGGREGATES / CONCURRENCY); n++) {
    const ids = perPartition[partitionOf(`acc-${n}`)];
    if (ids.length < AGGREGATES / CONCURRENCY) ids.push(`acc-${n}`);
  }
  return perPartition.flat();
})();

/** EVENTS OrderPaid events over the ACCOUNTS, versions 1..n of each. */
export function makeEvents(): EventEnvelope[] {
  const perAggregate = Math.ceil(EVENTS / ACCOUNTS.length);
  const events: EventEnvelope[] = [];
  for (let v = 1; v <= perAggregate; v++) {
    for (const account of ACCOUNTS) {
      if (events.length < EVENTS) events.push(orderEvent('paid', account, v));
    }
  }
  return events;
}

/** The same events with each aggregate's versions in reverse order (highest first). */
export function reversedVersions(events: EventEnvelope[]): EventEnvelope[] {
  return [...events].sort((a, b) => b.aggregateVersion - a.aggregateVersion);
}

/** A topic of CONCURRENCY partitions holding `events`, keyed by aggregate, in this order. */
export async function topicOf(
  env: TestEnvironment,
  name: string,
  events: EventEnvelope[],
): Promise<string> {
  const topic = await env.createTopic(name, CONCURRENCY);
  const producer = env.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  for (let i = 0; i < events.length; i += 500) {
    await producer.send({ topic, messages: events.slice(i, i + 500).map(toMessage) });
  }
  await producer.disconnect();
  // The lanes must be what the raw baseline assumes: the same events in each partition.
  const admin = env.kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    for (const { partition, high, low } of offsets) {
      const expected = events.filter((e) => partitionOf(e.aggregateId) === partition).length;
      if (Number(high) - Number(low) !== expected) {
        throw new Error(
          `${topic}/${partition} holds ${Number(high) - Number(low)}, not ${expected}`,
        );
      }
    }
  } finally {
    await admin.disconnect();
  }
  return topic;
}

/** The bench tables: the inbox's (migrations already run) and one account per aggregate. */
export async function createAccounts(dataSource: DataSource): Promise<void> {
  const sql = consumerBenchSql(dataSource);
  await dataSource.query(sql.createAccountTable);
  const insert = sql.insertAccounts(ACCOUNTS);
  await dataSource.query(insert.sql, insert.params);
}

/** The baseline's work for one event: the same two statements, in one transaction. */
function rawTransaction(dataSource: DataSource, e: EventEnvelope, consumer: string) {
  const sql = consumerBenchSql(dataSource);
  return runTransaction(dataSource, async (manager) => {
    const row = { consumer, eventKey: e.eventKey, eventType: e.eventType, eventId: e.eventId };
    const insert = sql.rawInboxInsert(row);
    await manager.query(insert.sql, insert.params);
    const update = sql.bookPayment(e.aggregateId);
    await manager.query(update.sql, update.params);
  });
}

/** A rate in events/s and the whole process's CPU time per event over the same interval. */
export interface Rate {
  eventsPerSecond: number;
  cpuMicrosPerEvent: number;
}

/**
 * Times a consumer: its rate from its first settled event to its last (the group join is
 * start-up, not throughput), its process's CPU per event from `consuming()` (called once it has
 * joined its group, before its first fetch is decoded) to the last event. `settled` after each
 * commit; `done` resolves once all EVENTS are, and rejects when the consumer fails or no event
 * settles for STALL_MS (a batch failing over and over would otherwise hang the bench).
 */
class SettleClock {
  private first = 0;
  private last = 0;
  private count = 0;
  private cpuFrom?: NodeJS.CpuUsage;
  private finish!: (rate: Rate) => void;
  private reject!: (error: Error) => void;
  private readonly watchdog: NodeJS.Timeout;
  readonly done = new Promise<Rate>((resolve, reject) => {
    this.finish = resolve;
    this.reject = reject;
  });

  constructor() {
    let seen = -1;
    this.watchdog = setInterval(() => {
      if (this.count === seen) this.fail(new Error(`no event settled for ${STALL_MS} ms`));
      seen = this.count;
    }, STALL_MS);
  }

  consuming(): void {
    this.cpuFrom = process.cpuUsage();
  }

  settled(): void {
    const now = performance.now();
    if (this.count === 0) this.first = now;
    this.last = now;
    this.count += 1;
    if (this.count !== EVENTS) return;
    clearInterval(this.watchdog);
    // The first settle starts the clock, so it is not counted in the interval.
    this.finish({
      eventsPerSecond: (EVENTS - 1) / ((this.last - this.first) / 1_000),
      cpuMicrosPerEvent: cpuSince(this.cpuFrom) / EVENTS,
    });
  }

  fail(error: Error): void {
    clearInterval(this.watchdog);
    this.reject(new Error(`${error.message} (${this.count} of ${EVENTS} events settled)`));
  }
}

const STALL_MS = 30_000;

/** This process's CPU time (user + system) since `from`, in µs. */
function cpuSince(from?: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(from);
  return user + system;
}

/** The baseline: the same two statements per event, one transaction each, CONCURRENCY workers. */
export async function rawRate(
  dataSource: DataSource,
  events: EventEnvelope[],
  consumer: string,
): Promise<Rate> {
  // One worker per partition, with that partition's events in order: the consumer's lanes.
  const lanes = Array.from({ length: CONCURRENCY }, () => [] as EventEnvelope[]);
  events.forEach((e) => lanes[partitionOf(e.aggregateId)].push(e));
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    lanes.map(async (lane) => {
      for (const e of lane) await rawTransaction(dataSource, e, consumer);
    }),
  );
  const seconds = (performance.now() - started) / 1_000;
  return {
    eventsPerSecond: events.length / seconds,
    cpuMicrosPerEvent: cpuSince(cpu) / events.length,
  };
}

/**
 * What the Kafka client alone costs: a bare kafkajs consumer (same group settings and
 * concurrency as the inbox runs) that parses each message and runs the baseline's transaction,
 * committing offsets as the inbox does. No inbox row check, validation, version gate or Nest.
 */
export async function bareKafkaRate(
  run: Pick<InboxRun, 'brokers' | 'topic' | 'consumer'>,
  dataSource: DataSource,
): Promise<Rate> {
  const clock = new SettleClock();
  // Offsets are committed as often as an inbox with default options commits them.
  const { offsetCommitEvery } = resolveInboxOptions({
    consumer: run.consumer,
    kafka: testKafkaConfig({
      brokers: run.brokers,
      clientId: run.consumer,
      ...kafkaSecurityFromEnv(),
    }),
    topics: [run.topic],
    registry: tradingEventRegistry(),
  });
  const kafka = new Kafka(
    testKafkaConfig({
      clientId: run.consumer,
      brokers: run.brokers,
      ...kafkaSecurityFromEnv(),
      logLevel: logLevel.NOTHING,
    }),
  );
  const consumer = kafka.consumer({ groupId: run.consumer, maxWaitTimeInMs: 100 });
  // kafkajs runs a failed batch again, which here fails again (its inbox rows are committed).
  consumer.on(consumer.events.CRASH, ({ payload }) => clock.fail(payload.error));
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [run.topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: CONCURRENCY,
      eachBatch: async ({ batch, resolveOffset }) => {
        const { topic, partition } = batch;
        const commit = (offset: string) =>
          consumer.commitOffsets([{ topic, partition, offset: (BigInt(offset) + 1n).toString() }]);
        let sinceCommit = 0;
        for (const message of batch.messages) {
          const event = JSON.parse(String(message.value)) as EventEnvelope;
          await rawTransaction(dataSource, event, run.consumer);
          clock.settled();
          resolveOffset(message.offset);
          if (++sinceCommit >= offsetCommitEvery) {
            sinceCommit = 0;
            await commit(message.offset);
          }
        }
        if (sinceCommit > 0) await commit(batch.messages[batch.messages.length - 1].offset);
      },
    });
    // run() resolves once the consumer has joined its group, before its first fetch.
    clock.consuming();
    return await clock.done;
  } finally {
    await consumer.disconnect();
  }
}

/** One inbox consumer run. */
export interface InboxRun {
  databaseUrl: string;
  brokers: string[];
  topic: string;
  deadLetterTopic: string;
  retryTopic: string;
  /** Inbox consumer name and Kafka group id. */
  consumer: string;
  batchSize: number;
  controller: Type<unknown>;
}

/**
 * Events/s of an InboxModule consumer reading `topic` (EVENTS messages) from the beginning:
 * from the first settled message to the last (the group join is start-up, not throughput).
 * A message is settled when its transaction committed, whatever its outcome.
 */
export async function inboxRate(run: InboxRun): Promise<Rate> {
  const clock = new SettleClock();
  @Module({
    imports: [
      TypeOrmModule.forRoot(
        (/^postgres(ql)?:/.test(run.databaseUrl)
          ? postgresDataSourceOptions
          : mysqlDataSourceOptions)({ url: run.databaseUrl, poolSize: CONCURRENCY + 2 }),
      ),
      InboxModule.forRoot({
        consumer: run.consumer,
        batchSize: run.batchSize,
        kafka: testKafkaConfig({
          brokers: run.brokers,
          ...kafkaSecurityFromEnv(),
          clientId: run.consumer,
          logLevel: logLevel.NOTHING,
          maxWaitTimeMs: 100,
        }),
        topics: [run.topic],
        registry: tradingEventRegistry(),
        deadLetterTopic: run.deadLetterTopic,
        retryTopic: run.retryTopic,
        partitionsConsumedConcurrently: CONCURRENCY,
        gapCheckIntervalMs: 0,
        pruneIntervalMs: 0,
      }),
      InboxHooksModule.register({ afterTransactionCommit: () => clock.settled() }),
    ],
    controllers: [run.controller],
  })
  class BenchModule {}

  const app = await NestFactory.create(BenchModule, { logger: ['error'] });
  app.connectMicroservice({ strategy: app.get(InboxTransport) });
  try {
    await app.init();
    // Resolves once the inbox's consumer has joined its group, before its first fetch.
    await app.startAllMicroservices();
    clock.consuming();
    return await clock.done;
  } finally {
    await app.close();
  }
}
