/**
 * npm run bench:db: the raw commit rate of the services' statement shapes on this MariaDB, at
 * 1, 8 and 32 connections, against the floor (one single-row insert per commit) at the same
 * concurrency, measured in alternating rounds in one run. These are the ceilings the services
 * are measured against (bench:http, bench:consumer): no Nest, no TypeORM, just mysql2.
 */
import 'reflect-metadata';
import { startTestEnvironment } from '@outbox-inbox/test-kit';
import { OrderMigrations } from '../apps/order-service/src/migrations';
import {
  BenchDatabase,
  createBenchDatabase,
  insertAccounts,
  insertPayingOrders,
} from './lib/bench-database';
import { progress } from './lib/progress';
import { BenchResult, writeResults } from './lib/results';
import { shapeRate } from './lib/shape-runner';
import {
  casPlusOutbox,
  inboxPlusUpdate,
  payCallback,
  Shape,
  singleInsert,
} from './lib/statement-shapes';
import { median } from './lib/stats';

const CONNECTIONS = [1, 8, 32];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION_MS = Number(process.env.BENCH_DB_DURATION_MS ?? 1_000);

const SHAPES: Array<{ name: string; shape: Shape }> = [
  { name: 'single-row insert', shape: singleInsert },
  { name: 'order CAS update + outbox insert', shape: casPlusOutbox },
  {
    name: 'pay callback (2 reads, notification insert, CAS update, outbox insert)',
    shape: payCallback,
  },
  { name: 'inbox insert + one-row update', shape: inboxPlusUpdate },
];

async function main(): Promise<void> {
  const env = await startTestEnvironment();
  let db: BenchDatabase | undefined;
  try {
    db = await createBenchDatabase(env, 'bench_db', Math.max(...CONNECTIONS), OrderMigrations);
    const orders = await insertPayingOrders(db.pool, 100 * Math.max(...CONNECTIONS));
    await insertAccounts(db.pool, orders);
    const rates = new Map<string, number[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const connections of CONNECTIONS) {
        for (const { name, shape } of SHAPES) {
          const rate = await shapeRate(db.pool, shape, orders, connections, {
            durationMs: DURATION_MS,
          });
          const key = `${name}|${connections}`;
          rates.set(key, [...(rates.get(key) ?? []), rate]);
          progress(
            `round ${round}/${ROUNDS}: ${name}, ${connections} conn: ${rate.toFixed(0)} tx/s`,
          );
        }
      }
    }
    const rate = (name: string, connections: number) =>
      median(rates.get(`${name}|${connections}`) ?? []);
    const floorName = SHAPES[0].name;
    const results: BenchResult[] = [];
    for (const connections of CONNECTIONS) {
      const floor = rate(floorName, connections);
      results.push({
        metric: `${floorName} commits, ${connections} connection(s), median of ${ROUNDS} rounds`,
        value: floor,
        unit: 'tx/s',
        baseline: `${floorName}, 1 connection`,
        baselineValue: rate(floorName, 1),
        ratio: floor / rate(floorName, 1),
        target: 'informational (scaling of the commit floor)',
        met: true,
      });
      for (const { name } of SHAPES.slice(1)) {
        const value = rate(name, connections);
        results.push({
          metric: `${name}, ${connections} connection(s), median of ${ROUNDS} rounds`,
          value,
          unit: 'tx/s',
          baseline: `${floorName}, same connections`,
          baselineValue: floor,
          ratio: value / floor,
          target: 'informational (baseline for the services)',
          met: true,
        });
      }
    }
    writeResults('db', results);
  } finally {
    await db?.close();
    await env.stop(); // drops the database
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
