// npm run bench:consumer-pg: the consumer bench's main row on PostgreSQL. The inbox consumer
// (one transaction per event, version gate on: the default) on a PostgreSQL database of its
// own (the shared server: POSTGRES_URL or the local one), against the raw rate of the same two
// statements (inbox insert + business update) in one transaction, same concurrency, on the
// same database and the run's broker; and against the bare kafkajs consumer running the raw
// transaction (issue 35's targets); and each side's Node CPU per event. The inbox's
// statements are its PostgreSQL ones (ON CONFLICT, statement_timestamp()). Medians of
// BENCH_ROUNDS (default 5) alternating rounds; bench/results/consumer-pg.json.
import 'reflect-metadata';
import { kafkaSecurityFromEnv } from '@app/config';
import { InboxMigrations } from '@outbox-inbox/inbox';
import { openPostgresDataSource } from '@outbox-inbox/database/postgres';
import { createPostgresTestDatabase, startTestEnvironment } from '@outbox-inbox/test-kit';
import {
  CONCURRENCY,
  EVENTS,
  GatedConsumer,
  Rate,
  bareKafkaRate,
  createAccounts,
  inboxRate,
  makeEvents,
  rawRate,
  topicOf,
} from './consumer/consumer-bench-kit';
import { alternatingRounds } from './lib/alternating-rounds';
import { purged } from './lib/purged';
import { BenchResult, percentile, writeResults } from './lib/results';
import { log } from './relay/relay-bench-kit';
import { BARE_CPU_TARGET, BARE_RATE_TARGET } from './consumer/consumer-targets';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** The MariaDB row's target, for the same row on PostgreSQL. */
const TARGET = 0.8;

async function main(): Promise<void> {
  const env = await startTestEnvironment();
  const database = await createPostgresTestDatabase('bench_consumer_pg');
  try {
    const dataSource = await openPostgresDataSource({
      url: database.url,
      migrations: InboxMigrations,
      poolSize: CONCURRENCY + 2,
    });
    try {
      await dataSource.runMigrations({ transaction: 'each' });
      await createAccounts(dataSource);
      const events = makeEvents();
      const topic = await topicOf(env, 'bench.consumer.pg', events);
      const base = {
        databaseUrl: database.url,
        brokers: env.infra.kafkaBrokers,
        ...kafkaSecurityFromEnv(),
        deadLetterTopic: await env.createTopic('bench.consumer.pg.dlq', 1),
        retryTopic: await env.createTopic('bench.consumer.pg.retry', 1),
      };
      const rates = { raw: [] as Rate[], bare: [] as Rate[], gated: [] as Rate[] };
      let round = 0;
      // Each timed run starts once the runs before it are vacuumed.
      const timed = (series: keyof typeof rates, run: () => Promise<Rate>) => async () => {
        await purged(dataSource);
        const rate = await run();
        rates[series].push(rate);
        return rate.eventsPerSecond;
      };
      await alternatingRounds(
        ROUNDS,
        {
          raw: timed('raw', () => rawRate(dataSource, events, `raw-${++round}`)),
          bare: timed('bare', () =>
            bareKafkaRate(
              { brokers: env.infra.kafkaBrokers, topic, consumer: `bare-${round}` },
              dataSource,
            ),
          ),
          gated: timed('gated', () =>
            inboxRate({
              ...base,
              topic,
              consumer: `gated-${round}`,
              batchSize: 1,
              controller: GatedConsumer,
            }),
          ),
        },
        log,
      );
      // Every series adds one to each event's account once: a lost or doubled effect shows here.
      const [{ total }] = (await dataSource.query(
        'SELECT SUM(balance) AS total FROM t_bench_account',
      )) as Array<{ total: string }>;
      const expected = Object.keys(rates).length * ROUNDS * EVENTS;
      if (Number(total) !== expected)
        throw new Error(`expected ${expected} updates in all, found ${total}`);
      writeResults('consumer-pg', results(rates));
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await database.drop();
    await env.stop();
  }
}

type Series = 'raw' | 'bare' | 'gated';

function results(rates: Record<Series, Rate[]>): BenchResult[] {
  const median = (series: Series, figure: keyof Rate) =>
    percentile(
      rates[series].map((r) => r[figure]),
      50,
    );
  const baseline =
    'raw inbox insert + update, one transaction each, same concurrency, on PostgreSQL';
  const [gated, raw] = [median('gated', 'eventsPerSecond'), median('raw', 'eventsPerSecond')];
  const [gatedCpu, rawCpu] = [
    median('gated', 'cpuMicrosPerEvent'),
    median('raw', 'cpuMicrosPerEvent'),
  ];
  const [bare, bareCpu] = [median('bare', 'eventsPerSecond'), median('bare', 'cpuMicrosPerEvent')];
  const bareBaseline =
    'bare kafkajs consumer (parse, the same two statements in one transaction, offsets every 20 messages; no inbox, validation, gate or Nest), on PostgreSQL';
  return [
    {
      metric: `inbox consumer, one transaction per event, version gate on, on PostgreSQL, median of ${ROUNDS} rounds of ${EVENTS} events, ${CONCURRENCY} partitions in parallel`,
      value: gated,
      unit: 'events/s',
      baseline,
      baselineValue: raw,
      ratio: gated / raw,
      target: `>= ${TARGET}x raw`,
      met: gated / raw >= TARGET,
    },
    {
      metric: `Node CPU per event, inbox consumer, one transaction per event, gate on, on PostgreSQL, median of ${ROUNDS} rounds`,
      value: gatedCpu,
      unit: 'µs CPU/event',
      baseline: `${baseline} (this process)`,
      baselineValue: rawCpu,
      ratio: gatedCpu / rawCpu,
      target: 'informational (CPU of the bench process per event; PostgreSQL not counted)',
      met: true,
    },
    {
      metric: `inbox consumer, one transaction per event, version gate on, on PostgreSQL, against the bare kafkajs consumer, median of ${ROUNDS} rounds of ${EVENTS} events, ${CONCURRENCY} partitions in parallel`,
      value: gated,
      unit: 'events/s',
      baseline: bareBaseline,
      baselineValue: bare,
      ratio: gated / bare,
      target: `>= ${BARE_RATE_TARGET}x the bare consumer (issue 35)`,
      met: gated / bare >= BARE_RATE_TARGET,
    },
    {
      metric: `Node CPU per event, inbox consumer, one transaction per event, gate on, on PostgreSQL, against the bare kafkajs consumer, median of ${ROUNDS} rounds`,
      value: gatedCpu,
      unit: 'µs CPU/event',
      baseline: `${bareBaseline} (this process)`,
      baselineValue: bareCpu,
      ratio: gatedCpu / bareCpu,
      target: `<= ${BARE_CPU_TARGET}x the bare consumer (issue 35; CPU of the bench process per event)`,
      met: gatedCpu / bareCpu <= BARE_CPU_TARGET,
    },
  ];
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
