import { BenchResult } from '../lib/results';
import { PgPeerMode } from './pg-transactional-outbox-peer';

/** The peer as the results name it. */
export const PG_PEER = 'pg-transactional-outbox 0.5.7';

/** What bench:peers-pg measured for one mode: medians of alternating rounds, events/s. */
export interface PgPeerMeasurements {
  relay: number;
  peer: number;
  events: number;
  rounds: number;
  mode: PgPeerMode;
}

/** The relay against the peer in one mode (target: ahead of it, > 1x), and the peer's rate. */
export function pgPeerResults(m: PgPeerMeasurements): BenchResult[] {
  const mode =
    m.mode.kind === 'polling'
      ? `polling mode (every ${m.mode.pollingIntervalMs} ms, ${m.mode.batchSize} messages in flight)`
      : "logical-replication mode (pgoutput, one segment per aggregate, on the bench's own wal_level=logical cluster, relay measured there too)";
  const peer = `${PG_PEER}, ${mode}, one send per message`;
  return [
    {
      metric: `relay throughput vs ${PG_PEER} in ${m.mode.kind} mode, on PostgreSQL, ${m.events} events, median of ${m.rounds} alternating rounds`,
      value: m.relay,
      unit: 'events/s',
      baseline: peer,
      baselineValue: m.peer,
      ratio: m.relay / m.peer,
      target: '> 1x the peer (ahead of it)',
      met: m.relay > m.peer,
    },
    {
      metric: `${PG_PEER} throughput, ${m.mode.kind} mode`,
      value: m.peer,
      unit: 'events/s',
      baseline: 'the relay, same run and server',
      baselineValue: m.relay,
      ratio: m.peer / m.relay,
      target: 'informational',
      met: true,
    },
  ];
}
