import { randomUUID } from 'node:crypto';
import { setTimeout as pause } from 'node:timers/promises';
import { createConnection } from 'mysql2/promise';
import { mapConcurrently, requestJson } from '../../../scripts/demo/http-json';
import { MYSQL_URL, PayingOrder, TradingStack } from '../../support/trading-stack';

/** Account balances in EUR (debits minus credits, minor units) by account code. */
export async function ledgerBalances(stack: TradingStack): Promise<Record<string, number>> {
  const rows = await stack.query<{ code: string; balance: string }>(
    'accounting_service',
    "SELECT code, balance FROM t_account WHERE currency = 'EUR'",
  );
  return Object.fromEntries(rows.map((r) => [r.code, Number(r.balance)]));
}

/**
 * The balances the paid orders and their coupons must produce (Dr 1100 / Cr 4000 per payment,
 * Dr 5100 / Cr 2200 per coupon), from the order and fulfillment services' rows.
 */
export async function expectedLedgerBalances(
  stack: TradingStack,
): Promise<{ paidOrders: number; balances: Record<string, number> }> {
  const [paid] = await stack.query<{ n: string; total: string }>(
    'order_service',
    "SELECT COUNT(*) AS n, SUM(amount) AS total FROM t_order WHERE status = 'PAID'",
  );
  const [coupons] = await stack.query<{ total: string }>(
    'fulfillment_service',
    "SELECT SUM(coupon_value) AS total FROM t_fulfillment WHERE status = 'DONE'",
  );
  const sales = Number(paid.total);
  const granted = Number(coupons.total);
  return {
    paidOrders: Number(paid.n),
    balances: { '1100': sales, '4000': -sales, '5100': granted, '2200': -granted },
  };
}

/**
 * True while one of the accounting service's connections runs the balance move of account
 * `code` (the upsert of its row), which, while the test holds that row, means it waits for the
 * lock. (The process list, not INNODB_TRX: MariaDB 10.11 did not show these waits there as LOCK
 * WAIT in our runs. It shows the statement of a multi-statement query that is running.)
 */
export async function bookingWaitsFor(stack: TradingStack, code: string): Promise<boolean> {
  const [row] = await stack.query<{ n: number }>(
    '',
    `SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST
      WHERE DB = ? AND INFO LIKE 'INSERT INTO t_account%' AND INFO LIKE ?`,
    [`${stack.prefix}accounting_service`, `%VALUES ('${code}'%`],
  );
  return Number(row.n) > 0;
}

/** A 5xx or a lost connection: the answer a killed database connection may cause. */
export async function retryingTransient<T extends { status: number }>(
  send: () => Promise<T>,
): Promise<T> {
  for (;;) {
    const response = await send().catch(() => undefined);
    if (response && response.status < 500) return response;
  }
}

/**
 * Opens orders as a client that retries 5xx and lost connections (creation under the same
 * Idempotency-Key, and "pay" again, which answers the same payment while PAYING).
 */
export async function openOrdersRetrying(
  stack: TradingStack,
  count: number,
): Promise<PayingOrder[]> {
  const base = stack.url('order-service');
  return mapConcurrently(Array.from({ length: count }), 6, async (_, i) => {
    const key = randomUUID();
    const created = await retryingTransient(() =>
      requestJson<{ id: string }>(`${base}/orders`, {
        body: { userId: `k${i % 5}`, amount: 700 + i, currency: 'EUR' },
        headers: { 'idempotency-key': key },
      }),
    );
    if (created.status !== 201) throw new Error(`POST /orders: ${created.status}`);
    const paying = await retryingTransient(() =>
      requestJson<PayingOrder>(`${base}/orders/${created.body.id}/pay`, { method: 'POST' }),
    );
    if (paying.status !== 200) throw new Error(`POST /orders/:id/pay: ${paying.status}`);
    return paying.body;
  });
}

/**
 * Kills every database connection of the services every ~150 ms for `windowMs`; answers how
 * many it killed. A fixed window, so the outage stays shorter than the inbox's retry budget
 * (8 attempts, about 6 s) on a slow machine too. Its own connection names no database.
 */
export async function killConnectionsFor(stack: TradingStack, windowMs: number): Promise<number> {
  const admin = await createConnection({ uri: `${MYSQL_URL}/` });
  const until = Date.now() + windowMs;
  let killed = 0;
  try {
    while (Date.now() < until) {
      const [rows] = await admin.query(
        'SELECT ID AS id FROM information_schema.PROCESSLIST WHERE DB LIKE ? AND ID <> CONNECTION_ID()',
        [`${stack.prefix}%`],
      );
      for (const { id } of rows as Array<{ id: number }>) {
        await admin.query('KILL CONNECTION ?', [id]).then(
          () => (killed += 1),
          () => undefined, // gone meanwhile
        );
      }
      await pause(150); // the fault's pace, not a wait for a condition
    }
  } finally {
    await admin.end();
  }
  return killed;
}
