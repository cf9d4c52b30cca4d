// Inbox consumer throughput: events/s through the full inbox path (Kafka fetch, inbox row,
// version gate, a one-row business update, commit, offset commit) against the raw rate of the
// same two statements (inbox insert + business update) in one transaction, same concurrency,
// measured in the same run; and, to show what the Kafka client alone costs, a bare kafkajs
// consumer running the baseline's transaction for each message. Each series also reports its
// Node CPU per event. Configurations: one transaction per event with the version gate on (the
// default, what the target is about) and opted out (OnEvent versionGate: false), batched mode
// (several events per transaction, gate on) with an @OnEventBatch handler (what the batched
// target is about) and with the @OnEvent one; and two streams issue 7 asks about: only
// duplicates (every event already processed) and parked-then-released (each aggregate's
// versions delivered in reverse). Run with `npm run bench:consumer`; results in
// bench/results/consumer.json.
import 'reflect-metadata';
import { kafkaSecurityFromEnv } from '@app/config';
import { InboxMigrations } from '@outbox-inbox/inbox';
import { openMysqlDataSource } from '@outbox-inbox/database/mysql';
import { startTestEnvironment } from '@outbox-inbox/test-kit';
import {
  CONCURRENCY,
  EVENTS,
  GatedConsumer,
  InboxRun,
  RunConsumer,
  Rate,
  UngatedConsumer,
  bareKafkaRate,
  createAccounts,
  inboxRate,
  makeEvents,
  rawRate,
  reversedVersions,
  topicOf,
} from './consumer/consumer-bench-kit';
import { BARE_CPU_TARGET, BARE_RATE_TARGET } from './consumer/consumer-targets';
import { purged } from './lib/purged';
import { BenchResult, percentile, writeResults } from './lib/results';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TARGET = 0.8;
const BATCH_SIZE = Number(process.env.BENCH_BATCH_SIZE ?? 100);
const BATCH_TARGET = 3;
/** The inbox consumer's Node CPU per event (one transaction each), at most this many times raw's. */
const CPU_TARGET = 1.4;

const ALL_SERIES = [
  'raw',
  'bare',
  'gated',
  'ungated',
  'runs',
  'batched',
  'duplicates',
  'parked',
] as const;
type Series = (typeof ALL_SERIES)[number];

/**
 * The series to run: all by default; BENCH_SERIES=bare,gated runs only those (a shorter run
 * on a shared machine, for the inbox against the bare consumer). duplicates needs gated.
 */
function selectedSeries(): Set<Series> {
  const named = process.env.BENCH_SERIES?.split(',').map((s) => s.trim());
  if (!named) return new Set(ALL_SERIES);
  const unknown = named.filter((s) => !(ALL_SERIES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new Error(`BENCH_SERIES: unknown series ${unknown.join(', ')}`);
  if (named.includes('duplicates') && !named.includes('gated')) {
    throw new Error('BENCH_SERIES: duplicates reads what gated took in; name gated too');
  }
  return new Set(named as Series[]);
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
    await createAccounts(dataSource);
    const events = makeEvents();
    const inOrder = await topicOf(env, 'bench.consumer', events);
    // The same messages again: a consumer that read `inOrder` finds only duplicates here.
    const again = await topicOf(env, 'bench.consumer.again', events);
    const reversed = await topicOf(env, 'bench.consumer.reversed', reversedVersions(events));
    const deadLetterTopic = await env.createTopic('bench.consumer.dlq', 1);

    // Empty throughout: every run's group reads it beside its topic, as a service's does.
    const retryTopic = await env.createTopic('bench.consumer.retry', 1);
    const base = {
      databaseUrl: database.url,
      brokers: env.infra.kafkaBrokers,
      ...kafkaSecurityFromEnv(),
      deadLetterTopic,
      retryTopic,
    };
    // Each timed run starts once InnoDB has purged what the runs before it changed.
    const run = async (extra: Omit<InboxRun, keyof typeof base>) => {
      await purged(dataSource);
      return inboxRate({ ...base, ...extra });
    };
    const raw = async (consumer: string) => {
      await purged(dataSource);
      return rawRate(dataSource, events, consumer);
    };
    const bare = async (consumer: string) => {
      await purged(dataSource);
      return bareKafkaRate(
        { brokers: env.infra.kafkaBrokers, topic: inOrder, consumer },
        dataSource,
      );
    };
    // Rounds alternate every series, and each figure is the median of its rounds: the machine
    // is shared, and load that comes and goes would otherwise favour one side.
    const selected = selectedSeries();
    const rates = Object.fromEntries([...selected].map((name) => [name, [] as Rate[]])) as Partial<
      Record<Series, Rate[]>
    >;
    const single = { batchSize: 1, controller: GatedConsumer };
    const runs: Record<Series, (round: number) => Promise<Rate>> = {
      raw: (round) => raw(`raw-${round}`),
      bare: (round) => bare(`bare-${round}`),
      gated: (round) => run({ ...single, topic: inOrder, consumer: `gated-${round}` }),
      ungated: (round) =>
        run({
          topic: inOrder,
          consumer: `ungated-${round}`,
          batchSize: 1,
          controller: UngatedConsumer,
        }),
      runs: (round) =>
        run({
          topic: inOrder,
          consumer: `runs-${round}`,
          batchSize: BATCH_SIZE,
          controller: RunConsumer,
        }),
      batched: (round) =>
        run({
          topic: inOrder,
          consumer: `batched-${round}`,
          batchSize: BATCH_SIZE,
          controller: GatedConsumer,
        }),
      // gated-<round> took every event in already: all of them are duplicates now.
      duplicates: (round) => run({ ...single, topic: again, consumer: `gated-${round}` }),
      parked: (round) => run({ ...single, topic: reversed, consumer: `parked-${round}` }),
    };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const name of ALL_SERIES) {
        if (selected.has(name)) rates[name]!.push(await runs[name](round));
      }
      console.log(
        `round ${round}: ${Object.entries(rates)
          .map(([name, r]) => {
            const { eventsPerSecond, cpuMicrosPerEvent } = r[r.length - 1];
            return `${name} ${eventsPerSecond.toFixed(0)}/s (${cpuMicrosPerEvent.toFixed(0)} µs CPU)`;
          })
          .join(', ')}`,
      );
    }
    console.log(JSON.stringify(rates));
    // Every series but duplicates adds one to each event's account once: a lost or doubled
    // effect would show here.
    const applying = Object.keys(rates).filter((name) => name !== 'duplicates').length;
    const balance = (await dataSource.query(
      'SELECT SUM(balance) AS total FROM t_bench_account',
    )) as Array<{ total: string }>;
    if (Number(balance[0].total) !== applying * ROUNDS * EVENTS) {
      throw new Error(
        `expected ${applying * ROUNDS * EVENTS} updates in all, found ${balance[0].total}`,
      );
    }
    await dataSource.destroy();
    // A subset of the series (BENCH_SERIES) writes a file of its own, beside the full run's.
    const subset = selected.size < ALL_SERIES.length;
    writeResults(subset ? `consumer-${[...selected].join('-')}` : 'consumer', results(rates));
  } finally {
    await env.stop();
  }
}

function results(rates: Partial<Record<Series, Rate[]>>): BenchResult[] {
  const medianOf = (series: Series, figure: keyof Rate) =>
    percentile(
      (rates[series] ?? []).map((r) => r[figure]),
      50,
    );
  const median = (series: Series) => medianOf(series, 'eventsPerSecond');
  const cpu = (series: Series) => medianOf(series, 'cpuMicrosPerEvent');
  const raw = median('raw');
  const baseline = 'raw inbox insert + update, one transaction each, same concurrency';
  const shape = `median of ${ROUNDS} rounds of ${EVENTS} events, ${CONCURRENCY} partitions in parallel`;
  const against = (metric: string, series: Series, target: number | undefined): BenchResult => ({
    metric: `${metric}, ${shape}`,
    value: median(series),
    unit: 'events/s',
    baseline,
    baselineValue: raw,
    ratio: median(series) / raw,
    target: target === undefined ? 'informational' : `>= ${target}x raw`,
    met: target === undefined || median(series) / raw >= target,
  });
  // Lower is better: the ratio is the series' CPU over the baseline's.
  const cpuAgainst = (metric: string, series: Series, target?: number): BenchResult => ({
    metric: `${metric}, median of ${ROUNDS} rounds`,
    value: cpu(series),
    unit: 'µs CPU/event',
    baseline: `${baseline} (this process)`,
    baselineValue: cpu('raw'),
    ratio: cpu(series) / cpu('raw'),
    target:
      (target === undefined ? 'informational' : `<= ${target}x raw`) +
      ' (CPU of the bench process per event; MariaDB not counted)',
    met: target === undefined || cpu(series) / cpu('raw') <= target,
  });
  const bareMetric =
    'bare kafkajs consumer (parse, the same two statements in one transaction, offsets every 20 messages; no inbox, validation, gate or Nest)';
  const rows: BenchResult[] = [
    against('inbox consumer, one transaction per event, version gate on', 'gated', TARGET),
    against(bareMetric, 'bare', undefined),
    {
      metric: `inbox consumer, one transaction per event, version gate on, against the bare kafkajs consumer, ${shape}`,
      value: median('gated'),
      unit: 'events/s',
      baseline: bareMetric,
      baselineValue: median('bare'),
      ratio: median('gated') / median('bare'),
      target: `>= ${BARE_RATE_TARGET}x the bare consumer (issue 35)`,
      met: median('gated') / median('bare') >= BARE_RATE_TARGET,
    },
    {
      metric: `Node CPU per event, inbox consumer, one transaction per event, gate on, against the bare kafkajs consumer, median of ${ROUNDS} rounds`,
      value: cpu('gated'),
      unit: 'µs CPU/event',
      baseline: `${bareMetric} (this process)`,
      baselineValue: cpu('bare'),
      ratio: cpu('gated') / cpu('bare'),
      target: `<= ${BARE_CPU_TARGET}x the bare consumer (issue 35; CPU of the bench process per event)`,
      met: cpu('gated') / cpu('bare') <= BARE_CPU_TARGET,
    },
    cpuAgainst('Node CPU per event, raw transaction baseline', 'raw'),
    cpuAgainst('Node CPU per event, bare kafkajs consumer', 'bare'),
    cpuAgainst(
      'Node CPU per event, inbox consumer, one transaction per event, gate on',
      'gated',
      CPU_TARGET,
    ),
    against(
      'inbox consumer, one transaction per event, version gate opted out (versionGate: false)',
      'ungated',
      undefined,
    ),
    against(
      `inbox consumer, batched mode (${BATCH_SIZE} events per transaction), @OnEventBatch handler (each run's updates in one round trip), version gate on`,
      'runs',
      BATCH_TARGET,
    ),
    against(
      `inbox consumer, batched mode (${BATCH_SIZE} events per transaction), @OnEvent handler (one update round trip per event), version gate on`,
      'batched',
      undefined,
    ),
    against(
      'inbox consumer, duplicates only (every event already processed), one transaction per event',
      'duplicates',
      undefined,
    ),
    against(
      "inbox consumer, parked then released (each aggregate's versions in reverse), one transaction per event",
      'parked',
      undefined,
    ),
  ];
  // A series left out (BENCH_SERIES) leaves its rows out.
  return rows.filter((row) => !Number.isNaN(row.value) && !Number.isNaN(row.baselineValue));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
