import { BenchResult } from '../lib/results';
import { PeerTuning } from './nestjs-outbox-peer';

/** The peer as the results name it. */
export const PEER = '@fullstackhouse/nestjs-outbox 4.1.2 (TypeORM driver, MySQL)';
/** The relay's rate over the peer's (issue 22). */
export const PEER_TARGET = 20;

/** What bench:peers measured: medians of alternating rounds, events/s. */
export interface PeerMeasurements {
  relay: number;
  peer: number;
  events: number;
  rounds: number;
  tuning: PeerTuning;
}

/** The relay against the peer (relay / peer, target >= 20x), and the peer's own rate. */
export function peerResults(m: PeerMeasurements): BenchResult[] {
  const settings =
    `pollingInterval ${m.tuning.pollingInterval} ms, maxEventsPerPoll ${m.tuning.maxEventsPerPoll}, ` +
    `pool ${m.tuning.poolSize}, default middlewares off`;
  return [
    {
      metric: `relay throughput vs ${PEER}, ${m.events} events, median of ${m.rounds} alternating rounds`,
      value: m.relay,
      unit: 'events/s',
      baseline: `${PEER}, a kafkajs listener per event (${settings})`,
      baselineValue: m.peer,
      ratio: m.relay / m.peer,
      target: `>= ${PEER_TARGET}x the peer`,
      met: m.relay / m.peer >= PEER_TARGET,
    },
    {
      metric: `${PEER} throughput (${settings})`,
      value: m.peer,
      unit: 'events/s',
      baseline: 'the relay, same run',
      baselineValue: m.relay,
      ratio: m.peer / m.relay,
      target: 'informational',
      met: true,
    },
  ];
}
