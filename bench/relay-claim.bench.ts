/**
 * node -r @swc-node/register bench/relay-claim.bench.ts: the relay's three headline rates alone,
 * without bench:relay's other parts (naive relay, 2 and 3 instances, 1,000,000 SENT rows,
 * latency), so that two versions of the relay can be run against each other in alternating
 * processes on a shared machine (bench/README.md, "The relay's claim in two round trips").
 * BENCH_ENGINE=mysql (default) or postgres; raw kafkajs produce, one relay and the minimal SKIP
 * LOCKED relay in BENCH_ROUNDS (default 5) alternating rounds of BENCH_RELAY_EVENTS rows.
 * Prints one JSON line: every round's rates, their medians and the medians of the per-round
 * ratios, and this process's CPU per event for the relay and the minimal relay (its reset of
 * the rows and the wait for purge included, the same for both): on a machine too loaded for
 * rates to compare, the client's work per event still does.
 */
import 'reflect-metadata';
import { openOutboxDatabase, startTestEnvironment } from '@outbox-inbox/test-kit';
import { percentile } from './lib/results';
import { minimalRelayRate, rawProduceRate } from './relay/baselines';
import { openPostgresBench } from './relay/postgres-bench';
import { Bench, EVENTS, log, relayRate, writeEvents } from './relay/relay-bench-kit';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ENGINE = process.env.BENCH_ENGINE === 'postgres' ? 'postgres' : 'mysql';

async function main(): Promise<void> {
  const env = await startTestEnvironment();
  try {
    const { bench, close } =
      ENGINE === 'postgres'
        ? await openPostgresBench(env, 'bench_relay_claim')
        : await mariadbBench(env);
    try {
      const runs = { raw: [] as number[], relay: [] as number[], minimal: [] as number[] };
      const cpuUs = { relay: [] as number[], minimal: [] as number[] };
      /** The rate `run` measures, and this process's CPU µs per event while it ran. */
      const withCpu = async (name: keyof typeof cpuUs, run: () => Promise<number>) => {
        const before = process.cpuUsage();
        runs[name].push(await run());
        const used = process.cpuUsage(before);
        cpuUs[name].push((used.user + used.system) / EVENTS);
      };
      for (let round = 1; round <= ROUNDS; round++) {
        runs.raw.push(await rawProduceRate(bench));
        await withCpu('relay', () => relayRate(bench, 1));
        await withCpu('minimal', () => minimalRelayRate(bench));
        log(`round ${round}: ${JSON.stringify({ runs, cpuUs })}`);
      }
      const ratio = (a: number[], b: number[]) =>
        percentile(
          a.map((x, i) => x / b[i]),
          50,
        );
      process.stdout.write(
        `${JSON.stringify({
          engine: ENGINE,
          brokers: env.infra.kafkaBrokers.length,
          events: EVENTS,
          runs,
          median: {
            raw: percentile(runs.raw, 50),
            relay: percentile(runs.relay, 50),
            minimal: percentile(runs.minimal, 50),
          },
          relayOverMinimal: ratio(runs.relay, runs.minimal),
          relayOverRaw: ratio(runs.relay, runs.raw),
          cpuUsPerEvent: {
            relay: percentile(cpuUs.relay, 50),
            minimal: percentile(cpuUs.minimal, 50),
          },
          cpuRelayOverMinimal: ratio(cpuUs.relay, cpuUs.minimal),
        })}\n`,
      );
    } finally {
      await close();
    }
  } finally {
    await env.stop();
  }
}

async function mariadbBench(env: Awaited<ReturnType<typeof startTestEnvironment>>) {
  const dataSource = await openOutboxDatabase(
    (await env.createDatabase('bench_relay_claim')).url,
    20,
  );
  const topic = await env.createTopic('bench.relay.claim', 6);
  const [firstId, lastId] = await writeEvents(dataSource, EVENTS);
  const bench: Bench = { env, dataSource, topic, firstId, lastId };
  return { bench, close: () => dataSource.destroy() };
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});
