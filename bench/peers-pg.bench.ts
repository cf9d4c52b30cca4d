/**
 * npm run bench:peers-pg: the outbox relay on PostgreSQL against the PostgreSQL peer,
 * pg-transactional-outbox, fed the same EVENTS messages (the relay's own rows, as the peer's
 * messages) and publishing to the same broker, in alternating rounds; each figure is the median
 * of BENCH_ROUNDS (default 5) rounds. Polling mode runs on the shared server beside the relay.
 * Logical-replication mode needs wal_level=logical, which the shared server must keep as it is:
 * it runs on a cluster of the bench's own (see logical-postgres-cluster.ts), started for the
 * part and stopped after it, and the relay is measured there too, so each mode is compared
 * with the relay on its own server. When the package cannot be loaded the part says so and
 * exits 0 with no figures; when no cluster can be started it reports polling only.
 */
import 'reflect-metadata';
import { startTestEnvironment, TestEnvironment } from '@outbox-inbox/test-kit';
import { alternatingRounds, SeriesRun } from './lib/alternating-rounds';
import {
  LogicalPostgresCluster,
  startLogicalPostgresCluster,
} from './lib/logical-postgres-cluster';
import { BenchResult, writeResults } from './lib/results';
import { pgPeerResults } from './peers/pg-peer-results';
import { loadPgPeer, PG_PEER_PACKAGE, PgPeerMode } from './peers/pg-transactional-outbox-peer';
import { pgPeerRate, startBenchPgPeer, StartedPgPeer } from './peers/pg-peer-run';
import { openPostgresBench, PostgresBench } from './relay/postgres-bench';
import { log, relayRate } from './relay/relay-bench-kit';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/**
 * 2,000 events, not the relay part's 10,000: the peer's polling function reads every unprocessed
 * message's segment on each poll, so it slows as the table fills, and 10,000 took minutes per
 * round. Both sides get the same messages; fewer favours the peer (shorter polls) and, if
 * anything, costs the relay (its start-up weighs more on a shorter run).
 */
const EVENTS = Number(process.env.BENCH_PG_PEER_EVENTS ?? 2_000);
/**
 * The peer's defaults poll every 500 ms for 5 messages; tuned as a user chasing throughput
 * would: the relay's 20 ms poll and 100 messages in flight (its batch size is also how many
 * messages it works on at once). Both can be changed to try other settings.
 */
const POLLING: PgPeerMode = {
  kind: 'polling',
  pollingIntervalMs: Number(process.env.BENCH_PG_PEER_POLLING_INTERVAL_MS ?? 20),
  batchSize: Number(process.env.BENCH_PG_PEER_BATCH_SIZE ?? 100),
};

async function main(): Promise<void> {
  const loaded = await loadPgPeer();
  if ('error' in loaded) {
    log(`bench:peers-pg skipped: ${PG_PEER_PACKAGE} could not be loaded (${loaded.error})`);
    // No figures rather than the last run's: the summary must not show stale ones.
    writeResults('peers-pg', []);
    return;
  }
  const env = await startTestEnvironment();
  const opened: Array<{ close(): Promise<void> }> = [];
  try {
    const shared = await openPostgresBench(env, 'bench_peers_pg', { events: EVENTS });
    opened.push(shared);
    const polling = await startBenchPgPeer(loaded.api, shared, POLLING, 'bench_peers_pg_peer');
    opened.push(polling);
    const series: Record<string, SeriesRun> = {
      relay: () => relayRate(shared.bench, 1),
      polling: () => pgPeerRate(polling),
    };
    const logical = await logicalSetting(env, loaded.api, opened);
    if (logical) {
      series.relayLogical = () => relayRate(logical.relay.bench, 1);
      series.replication = () => pgPeerRate(logical.peer);
    }
    const { median } = await alternatingRounds(ROUNDS, series, log);
    log(
      `the peer's warnings and errors over all rounds: polling ${polling.peer.warnings()}` +
        (logical ? `, replication ${logical.peer.peer.warnings()}` : ''),
    );
    const results: BenchResult[] = pgPeerResults({
      relay: median.relay,
      peer: median.polling,
      events: polling.events,
      rounds: ROUNDS,
      mode: POLLING,
    });
    if (logical)
      results.push(
        ...pgPeerResults({
          relay: median.relayLogical,
          peer: median.replication,
          events: logical.peer.events,
          rounds: ROUNDS,
          mode: { kind: 'replication' },
        }),
      );
    writeResults('peers-pg', results);
  } finally {
    for (const item of opened.reverse()) await item.close();
    await env.stop();
  }
}

/**
 * The relay and the peer in logical-replication mode, both on a cluster of the bench's own
 * with wal_level=logical; undefined (and why, logged) when no such cluster can be started.
 * Everything opened is pushed to `opened`, to be closed in reverse.
 */
async function logicalSetting(
  env: TestEnvironment,
  api: Parameters<typeof startBenchPgPeer>[0],
  opened: Array<{ close(): Promise<void> }>,
): Promise<{ relay: PostgresBench; peer: StartedPgPeer } | undefined> {
  let cluster: LogicalPostgresCluster;
  try {
    cluster = await startLogicalPostgresCluster();
  } catch (error) {
    log(`logical-replication mode skipped: ${(error as Error).message}`);
    return undefined;
  }
  opened.push({ close: () => cluster.stop() });
  log(`PostgreSQL cluster with wal_level=logical at ${cluster.serverUrl}`);
  const relay = await openPostgresBench(env, 'bench_peers_pg_logical', {
    server: cluster.serverUrl,
    events: EVENTS,
  });
  opened.push(relay);
  const peer = await startBenchPgPeer(
    api,
    relay,
    { kind: 'replication' },
    'bench_peers_pg_replication',
    cluster.serverUrl,
  );
  opened.push(peer);
  return { relay, peer };
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});
