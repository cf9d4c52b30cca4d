import { createPostgresTestDatabase } from '@outbox-inbox/test-kit';
import { Producer } from 'kafkajs';
import { benchProducer, quietKafka } from '../relay/baselines';
import { PostgresBench } from '../relay/postgres-bench';
import { sleep } from '../relay/relay-bench-kit';
import { relayBenchSql } from '../relay/relay-bench-sql';
import {
  loadPgPeer,
  PgPeer,
  PgPeerMessage,
  PgPeerMode,
  startPgPeer,
} from './pg-transactional-outbox-peer';

type PgPeerApi = Extract<Awaited<ReturnType<typeof loadPgPeer>>, { api: unknown }>['api'];

/** A peer started for the bench, with the messages it is fed each round. */
export interface StartedPgPeer {
  peer: PgPeer;
  messages: PgPeerMessage[];
  events: number;
  close(): Promise<void>;
}

/**
 * Starts the peer in `mode` on a database of its own (on the server of `server`, else the
 * shared one) beside the relay's bench `relay`, publishing to its topic on its broker; the
 * messages are the relay's EVENTS rows (same key, value and headers).
 */
export async function startBenchPgPeer(
  api: PgPeerApi,
  relay: PostgresBench,
  mode: PgPeerMode,
  label: string,
  server?: string,
): Promise<StartedPgPeer> {
  const { bench } = relay;
  const range = relayBenchSql(bench.dataSource).rowsInRange(bench.firstId, bench.lastId);
  const rows = (await bench.dataSource.query(range.sql, range.params)) as Array<{
    aggregate_type: string;
    aggregate_id: string;
    event_type: string;
    payload: string;
    headers: string;
  }>;
  const messages = rows.map((r) => ({
    aggregateType: r.aggregate_type,
    aggregateId: r.aggregate_id,
    messageType: r.event_type,
    payload: JSON.parse(r.payload) as unknown,
    metadata: JSON.parse(r.headers) as Record<string, string>,
  }));
  const database = await createPostgresTestDatabase(label, server);
  let producer: Producer | undefined;
  try {
    producer = benchProducer(quietKafka(bench));
    await producer.connect();
    await producer.send({
      topic: bench.topic,
      acks: -1,
      messages: [{ key: 'warm-up', value: '{}' }],
    });
    const peer = await startPgPeer(api, database.url, mode, producer, bench.topic);
    const connected = producer;
    return {
      peer,
      messages,
      events: messages.length,
      async close() {
        await peer.close();
        await connected.disconnect();
        await database.drop();
      },
    };
  } catch (error) {
    await producer?.disconnect();
    await database.drop();
    throw error;
  }
}

/** How long the peer may publish nothing before the run fails rather than hangs. */
const STALL_MS = 60_000;

/**
 * Events/s for the peer to publish its messages and mark them processed, timed from the moment
 * it can see them (polling: unlocked in one statement; replication: inserted in one
 * transaction, so the insert is in the time).
 */
export async function pgPeerRate({ peer, messages }: StartedPgPeer): Promise<number> {
  await peer.prepare(messages);
  const before = peer.published();
  const started = process.hrtime.bigint();
  await peer.release(messages);
  // The handler's own count first, as relayRate does: no table scans while the peer works.
  let seen = -1;
  let progressAt = Date.now();
  while (peer.published() - before < messages.length) {
    if (peer.published() !== seen) [seen, progressAt] = [peer.published(), Date.now()];
    if (Date.now() - progressAt > STALL_MS)
      throw new Error(
        `the peer published nothing for ${STALL_MS} ms (${seen - before} of ${messages.length})`,
      );
    await sleep(5);
  }
  while ((await peer.unprocessed()) > 0) await sleep(5);
  return messages.length / (Number(process.hrtime.bigint() - started) / 1e9);
}
