import { BenchResult } from '../lib/results';
import { median, Spread } from '../lib/stats';
import { booksComplete } from './books';
import { LatencyRound } from './latency-rounds';

/** Target of issue 35: the chain's p99 callback → journal at most this many times the minimal chain's. */
export const P99_VS_MINIMAL_TARGET = 1.5;

/** One alternating round: the real chain and the minimal chain at the same rate. */
export interface LatencyRoundPair {
  chain: LatencyRound;
  minimal: LatencyRound;
}

/**
 * The latency rounds against the minimal chain: callback → payment journal and each stage, the
 * chain's median beside the minimal chain's, and the ratio as the median of the per-round
 * ratios (each round's two runs share the machine's load of that moment); then, per chain, the
 * orders booked completely and balanced.
 */
export function latencyResults(pairs: LatencyRoundPair[], load: string): BenchResult[] {
  const rounds = `${pairs.length} alternating round${pairs.length === 1 ? '' : 's'} of ${pairs[0].chain.books.orders} callbacks at ${load}`;
  const versus = (
    metric: string,
    pick: (round: LatencyRound) => number,
    target: string,
    limit?: number,
  ): BenchResult => {
    const ratio = median(pairs.map((p) => pick(p.chain) / pick(p.minimal)));
    return {
      metric: `${metric}, chain vs minimal chain (${rounds})`,
      value: median(pairs.map((p) => pick(p.chain))),
      unit: 'ms',
      baseline:
        'the minimal chain: the same statements, hand-written control flow, no Nest or services (median of rounds); ratio: median of per-round ratios',
      baselineValue: median(pairs.map((p) => pick(p.minimal))),
      ratio,
      target,
      met: limit === undefined || ratio <= limit,
    };
  };
  const stage = (name: string, of: (round: LatencyRound) => Spread) =>
    (['p50', 'p99'] as const).map((p) =>
      versus(`stage ${name}, ${p}`, (r) => of(r)[p], 'informational (where the difference goes)'),
    );
  const books = (name: string, of: (pair: LatencyRoundPair) => LatencyRound): BenchResult => {
    const orders = pairs.reduce((n, p) => n + of(p).books.orders, 0);
    const complete = pairs.reduce((n, p) => n + of(p).books.complete, 0);
    return {
      metric: `latency rounds: ${name}, orders with both journals booked once and balanced`,
      value: complete,
      unit: 'orders',
      baseline: 'orders paid in the rounds',
      baselineValue: orders,
      ratio: complete / orders,
      target: 'every order',
      met: pairs.every((p) => booksComplete(of(p).books)),
    };
  };
  return [
    versus(
      'callback to payment journal booked, p99',
      (r) => r.booked.p99,
      `<= ${P99_VS_MINIMAL_TARGET}x the minimal chain's`,
      P99_VS_MINIMAL_TARGET,
    ),
    versus('callback to payment journal booked, p50', (r) => r.booked.p50, 'informational'),
    ...stage('OrderPaid outbox row written → marked SENT', (r) => r.stages.relay),
    ...stage('marked SENT → payment journal booked', (r) => r.stages.consume),
    books('chain', (p) => p.chain),
    books('minimal chain', (p) => p.minimal),
  ];
}
