import { drive, LoadRequest } from '../lib/load';
import { progress } from '../lib/progress';
import { startBareServer } from './bare-process';

/**
 * GET /ping on a bare Nest app and on a raw Express handler (each its own process), in
 * alternating rounds of `seconds` after a one-second warm-up each; requests/s per round.
 */
export async function compareBareEndpoints(
  connections: number,
  rounds: number,
  seconds: number,
): Promise<{ nest: number[]; express: number[] }> {
  const servers = {
    nest: await startBareServer('nest'),
    express: await startBareServer('express'),
  };
  try {
    const ping: LoadRequest = { method: 'GET', path: '/ping' };
    const load = (url: string, durationSeconds: number) =>
      drive({ baseUrl: url, connections, durationSeconds, next: () => ping });
    for (const server of Object.values(servers)) await load(server.url, 1);
    const rates = { nest: [] as number[], express: [] as number[] };
    for (let round = 1; round <= rounds; round++) {
      for (const name of ['nest', 'express'] as const) {
        rates[name].push((await load(servers[name].url, seconds)).requestsPerSecond);
      }
      progress(
        `round ${round}/${rounds}: bare Nest ${rates.nest.at(-1)!.toFixed(0)} req/s, ` +
          `raw Express ${rates.express.at(-1)!.toFixed(0)} req/s`,
      );
    }
    return rates;
  } finally {
    await Promise.allSettled(Object.values(servers).map((s) => s.stop()));
  }
}
