import { randomUUID } from 'node:crypto';
import { openMysqlDataSource } from '@outbox-inbox/database/mysql';
import { InboxMigrations } from '@outbox-inbox/inbox';
import { TestEnvironment } from '@outbox-inbox/test-kit';
import { createPool, Pool } from 'mysql2/promise';
import { BENCH_TABLES, OwnedOrder } from './statement-shapes';

/** A fresh database with the order-service's and the inbox's tables, and a raw mysql2 pool. */
export interface BenchDatabase {
  url: string;
  pool: Pool;
  close(): Promise<void>;
}

/**
 * Creates the database through `env` (dropped by `env.stop()`) and runs `orderMigrations`
 * (the order-service's, passed in by the bench script) and the inbox's.
 */
export async function createBenchDatabase(
  env: TestEnvironment,
  label: string,
  poolSize: number,
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  orderMigrations: Function[],
): Promise<BenchDatabase> {
  const database = await env.createDatabase(label);
  const dataSource = await openMysqlDataSource({
    url: database.url,
    migrations: [...orderMigrations, ...InboxMigrations],
    poolSize: 1,
  });
  try {
    await dataSource.runMigrations({ transaction: 'each' });
    for (const sql of BENCH_TABLES) await dataSource.query(sql);
  } finally {
    await dataSource.destroy();
  }
  const pool = createPool({ uri: database.url, connectionLimit: poolSize, timezone: 'Z' });
  return { url: database.url, pool, close: () => pool.end() };
}

/**
 * Inserts `count` orders already moved to PAYING (version 2, as POST /orders then
 * POST /orders/:id/pay leave them), in chunks; returns them.
 */
export async function insertPayingOrders(pool: Pool, count: number): Promise<OwnedOrder[]> {
  const orders: OwnedOrder[] = [];
  const now = new Date();
  for (let start = 0; start < count; start += 1000) {
    const chunk = Array.from({ length: Math.min(1000, count - start) }, (_, i) => ({
      userId: `bench-user-${start + i}`,
      amount: 1_000 + ((start + i) % 500),
      payOrderId: `pay_${randomUUID()}`,
    }));
    await pool.query(
      `INSERT INTO t_order (user_id, amount, currency, status, version, pay_order_id,
         created_at, updated_at) VALUES ?`,
      [chunk.map((o) => [o.userId, o.amount, 'EUR', 'PAYING', 2, o.payOrderId, now, now])],
    );
    const [rows] = await pool.query(
      'SELECT id, pay_order_id FROM t_order WHERE pay_order_id IN (?)',
      [chunk.map((o) => o.payOrderId)],
    );
    const ids = new Map(
      (rows as Array<{ id: number | string; pay_order_id: string }>).map((r) => [
        r.pay_order_id,
        String(r.id),
      ]),
    );
    for (const o of chunk) orders.push({ ...o, id: ids.get(o.payOrderId)!, version: 2 });
  }
  return orders;
}

/** One t_bench_account row per order's user (what inboxPlusUpdate updates). */
export async function insertAccounts(pool: Pool, orders: OwnedOrder[]): Promise<void> {
  for (let start = 0; start < orders.length; start += 1000) {
    await pool.query('INSERT INTO t_bench_account (id, balance) VALUES ?', [
      orders.slice(start, start + 1000).map((o) => [o.userId, 0]),
    ]);
  }
}
