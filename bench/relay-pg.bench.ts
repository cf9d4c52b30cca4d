/**
 * npm run bench:relay-pg: the outbox relay on PostgreSQL (OutboxRelay on a postgres DataSource,
 * its claim, lease, fencing and ordering in the PostgreSQL dialect) against the minimal batch
 * relay's PostgreSQL twin (claim 500 with FOR UPDATE SKIP LOCKED, send, mark SENT, commit) and
 * against raw kafkajs batch produce of the same messages, on a PostgreSQL database of its own
 * (the shared server: POSTGRES_URL or the local one) and the run's broker, the same one as the
 * MariaDB parts. Every figure is the median of BENCH_ROUNDS (default 5) alternating rounds.
 */
import 'reflect-metadata';
import { startTestEnvironment } from '@outbox-inbox/test-kit';
import { alternatingRounds } from './lib/alternating-rounds';
import { postgresSettings } from './lib/postgres-settings';
import { ratioResult, writeResults } from './lib/results';
import { minimalRelayRate, rawProduceRate } from './relay/baselines';
import { openPostgresBench } from './relay/postgres-bench';
import { log, relayRate } from './relay/relay-bench-kit';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

async function main(): Promise<void> {
  const env = await startTestEnvironment();
  try {
    const { bench, close } = await openPostgresBench(env, 'bench_relay_pg');
    try {
      log(`PostgreSQL: ${JSON.stringify(await postgresSettings(bench.dataSource))}`);
      const { median } = await alternatingRounds(
        ROUNDS,
        {
          raw: () => rawProduceRate(bench),
          relay: () => relayRate(bench, 1),
          minimal: () => minimalRelayRate(bench),
        },
        log,
      );
      const rate = 'events/s';
      writeResults('relay-pg', [
        ratioResult(
          'relay throughput vs minimal relay, on PostgreSQL',
          median.relay,
          rate,
          'minimal batch relay on PostgreSQL (SKIP LOCKED 500, send, mark SENT)',
          median.minimal,
          '>= 1.0x, with lease, fencing and ordering',
          median.relay / median.minimal >= 1.0,
        ),
        ratioResult(
          'relay throughput vs raw produce, on PostgreSQL',
          median.relay,
          rate,
          'raw kafkajs batch produce (rows read from PostgreSQL beforehand)',
          median.raw,
          '>= 0.5x raw produce',
          median.relay / median.raw >= 0.5,
        ),
      ]);
    } finally {
      await close();
    }
  } finally {
    await env.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});
