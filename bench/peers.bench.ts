/**
 * npm run bench:peers: the project's outbox relay against a peer Node library,
 * @fullstackhouse/nestjs-outbox with its TypeORM driver (MySQL) on the same MariaDB, the same
 * broker (the librdkafka mock unless KAFKA_BROKERS is set) and the same EVENTS messages (the
 * relay's own outbox rows, copied into the peer's table as its events), in alternating rounds;
 * each figure is the median of BENCH_ROUNDS (default 5) rounds. The peer publishes through a
 * listener per event (@OnEvent) sending with kafkajs, configured as the relay's producer. When
 * the peer's packages cannot be loaded, the bench says so and exits 0 (skipped).
 */
import 'reflect-metadata';
import { openOutboxDatabase, startTestEnvironment } from '@outbox-inbox/test-kit';
import { purged } from './lib/purged';
import { percentile, writeResults } from './lib/results';
import {
  loadPeer,
  PEER_EVENT,
  PeerMessageEvent,
  PeerOutbox,
  PeerTuning,
  startPeer,
} from './peers/nestjs-outbox-peer';
import { PEER, peerResults } from './peers/peer-results';
import { Bench, EVENTS, log, relayRate, sleep, writeEvents } from './relay/relay-bench-kit';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/**
 * The peer's README example polls every 30 s, 10 events per poll; for a throughput run it is
 * tuned as a user chasing throughput would: a 20 ms poll (the relay's poll interval here), 100
 * events per poll (the poller keeps polling while polls come back full), and the relay's pool
 * of 20 connections. Both can be changed to try other settings.
 */
const TUNING: PeerTuning = {
  pollingInterval: Number(process.env.BENCH_PEER_POLLING_INTERVAL_MS ?? 20),
  maxEventsPerPoll: Number(process.env.BENCH_PEER_MAX_EVENTS_PER_POLL ?? 100),
  poolSize: 20,
};

async function main(): Promise<void> {
  const peer = await loadPeer();
  if ('error' in peer) {
    log(`bench:peers skipped: ${PEER} could not be loaded (${peer.error})`);
    // No figures rather than the last run's: the summary must not show stale ones.
    writeResults('peers', []);
    return;
  }
  const env = await startTestEnvironment();
  const dataSource = await openOutboxDatabase((await env.createDatabase('bench_peers')).url, 20);
  let outbox: PeerOutbox | undefined;
  try {
    const topic = await env.createTopic('bench.peers', 6);
    const [firstId, lastId] = await writeEvents(dataSource, EVENTS);
    const bench: Bench = { env, dataSource, topic, firstId, lastId };
    const events = await messagesOf(bench);
    const peerUrl = (await env.createDatabase('bench_peers_peer')).url;
    outbox = await startPeer(peer, peerUrl, env.infra.kafkaBrokers, topic, TUNING);
    const runs = { relay: [] as number[], peer: [] as number[] };
    for (let round = 1; round <= ROUNDS; round++) {
      runs.relay.push(await relayRate(bench, 1));
      runs.peer.push(await peerRate(outbox, events, bench));
      log(
        `round ${round}: relay ${runs.relay[round - 1].toFixed(0)}, peer ` +
          `${runs.peer[round - 1].toFixed(0)} events/s`,
      );
    }
    const relay = percentile(runs.relay, 50);
    const peerRateMedian = percentile(runs.peer, 50);
    writeResults(
      'peers',
      peerResults({ relay, peer: peerRateMedian, events: EVENTS, rounds: ROUNDS, tuning: TUNING }),
    );
  } finally {
    await outbox?.close();
    await dataSource.destroy();
    await env.stop();
  }
}

/** The relay's EVENTS rows as the peer's events: the same key, value and headers on the wire. */
async function messagesOf(bench: Bench): Promise<PeerMessageEvent[]> {
  const rows = (await bench.dataSource.query(
    'SELECT aggregate_id, payload, headers FROM t_outbox WHERE id BETWEEN ? AND ? ORDER BY id',
    [bench.firstId, bench.lastId],
  )) as Array<{ aggregate_id: string; payload: string; headers: string }>;
  return rows.map((r) => ({
    name: PEER_EVENT,
    key: r.aggregate_id,
    envelope: JSON.parse(r.payload) as unknown,
    headers: JSON.parse(r.headers) as Record<string, string>,
  }));
}

/**
 * Events/s for the peer to publish `events` and delete them from its table (which it does once
 * every listener has an event), timed from the moment they are made due in one statement.
 */
async function peerRate(
  outbox: PeerOutbox,
  events: PeerMessageEvent[],
  bench: Bench,
): Promise<number> {
  await outbox.seed(events);
  await purged(bench.dataSource);
  const before = outbox.published();
  await outbox.release();
  const started = process.hrtime.bigint();
  // The listener's own count first, as relayRate does: no table scans while the peer works.
  while (outbox.published() - before < events.length) await sleep(5);
  while ((await outbox.stored()) > 0) await sleep(5);
  return events.length / (Number(process.hrtime.bigint() - started) / 1e9);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});
