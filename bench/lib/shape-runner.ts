import { Pool } from 'mysql2/promise';
import { OwnedOrder, Shape } from './statement-shapes';

/** How long a shape runs: for a fixed time (cycling through the orders), or once per order. */
export type RunLength = { durationMs: number } | { oncePerOrder: true };

/**
 * Runs `shape` on `connections` connections of `pool` at once, each worker on its own share of
 * `orders` (so compare-and-set never collides), and returns committed transactions per second.
 * Each worker holds one connection for the whole run, as a busy pool would. `latenciesMs`,
 * when given, receives each transaction's duration.
 */
export async function shapeRate(
  pool: Pool,
  shape: Shape,
  orders: OwnedOrder[],
  connections: number,
  length: RunLength,
  latenciesMs?: number[],
): Promise<number> {
  const lanes = Array.from({ length: connections }, () => [] as OwnedOrder[]);
  orders.forEach((order, i) => lanes[i % connections].push(order));
  if (lanes.some((lane) => lane.length === 0)) {
    throw new Error(`${orders.length} orders cannot feed ${connections} connections`);
  }
  const held = await Promise.all(lanes.map(() => pool.getConnection()));
  try {
    for (const connection of held) {
      await connection.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
    }
    let commits = 0;
    const started = performance.now();
    const deadline = 'durationMs' in length ? started + length.durationMs : Infinity;
    await Promise.all(
      lanes.map(async (lane, w) => {
        for (
          let i = 0;
          'durationMs' in length ? performance.now() < deadline : i < lane.length;
          i++
        ) {
          const begun = performance.now();
          await shape(held[w], lane[i % lane.length]);
          latenciesMs?.push(performance.now() - begun);
          commits++;
        }
      }),
    );
    return commits / ((performance.now() - started) / 1000);
  } finally {
    held.forEach((connection) => connection.release());
  }
}
