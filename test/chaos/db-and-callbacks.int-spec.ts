import { randomUUID } from 'node:crypto';
import { setTimeout as pause } from 'node:timers/promises';
import { Connection, createConnection } from 'mysql2/promise';
import { waitFor } from '@app/testing';
import { mapConcurrently, requestJson } from '../../scripts/demo/http-json';
import { MYSQL_URL, PayingOrder, TradingStack } from '../support/trading-stack';

/**
 * Chaos scenarios 9 to 12 (issue 6) against the four services as real processes: hot ledger
 * rows held locked (lock-wait timeouts and a real deadlock in the accounting service), the
 * services' database connections killed under load with a pool of two, hostile pay
 * callbacks, and a coupon provider that commits grants and drops its replies. Every test ends
 * with the chain settled and the invariant checker clean.
 */

/** Seconds a row-lock wait lasts in the accounting service before it fails with 1205. */
const ACCOUNTING_LOCK_WAIT_S = 1;
const POOL = { DB_POOL_SIZE: '2' };
/** A relay whose connection died mid-claim leaves rows SENDING until its lease runs out. */
const RELAY = {
  OUTBOX_LEASE_MS: '6000',
  OUTBOX_REQUEST_TIMEOUT_MS: '1000',
  OUTBOX_PRODUCER_RETRIES: '2',
};

let stack: TradingStack;
/** Orders paid so far in this file: `settled` and the balances count all of them. */
let paidOrders = 0;

beforeAll(async () => {
  stack = await TradingStack.start({
    env: {
      'order-service': { ...POOL, ...RELAY },
      'fulfillment-service': { ...POOL, ...RELAY, FULFILLMENT_MAX_ATTEMPTS: '60' },
      'accounting-service': { ...POOL, DB_LOCK_WAIT_TIMEOUT_S: String(ACCOUNTING_LOCK_WAIT_S) },
      'coupon-provider': POOL,
    },
  });
});

afterAll(async () => {
  await stack?.query('', `DROP DATABASE IF EXISTS \`${stack.prefix}ballast\``);
  await stack?.stop();
});

async function payAndSettle(orders: PayingOrder[]): Promise<void> {
  expect(new Set(await stack.pay(orders))).toEqual(new Set([200]));
  paidOrders += orders.length;
  await stack.settled(paidOrders);
}

async function expectInvariantsHold(): Promise<void> {
  const report = await stack.invariants();
  expect(report.violations).toEqual([]);
  expect(report.observations).toMatchObject({ paidOrders });
}

/** Lines a service logged since the start, matching `pattern`. */
function logged(service: string, pattern: RegExp): string[] {
  return stack.logs.filter((line) => line.startsWith(`[${service}]`) && pattern.test(line));
}

/** A connection of the test's own to a service's database (a stuck batch job, an operator). */
function connect(database: string): Promise<Connection> {
  return createConnection({ uri: `${MYSQL_URL}/${stack.prefix}${database}` });
}

/** Account balances in EUR (debits minus credits, minor units) by account code. */
async function balances(): Promise<Record<string, number>> {
  const rows = await stack.query<{ code: string; balance: string }>(
    'accounting_service',
    "SELECT code, balance FROM t_account WHERE currency = 'EUR'",
  );
  return Object.fromEntries(rows.map((r) => [r.code, Number(r.balance)]));
}

/** Balances the paid orders and their coupons must produce, from the other services' rows. */
async function expectedBalances(): Promise<Record<string, number>> {
  const [paid] = await stack.query<{ n: string; total: string }>(
    'order_service',
    "SELECT COUNT(*) AS n, SUM(amount) AS total FROM t_order WHERE status = 'PAID'",
  );
  const [coupons] = await stack.query<{ total: string }>(
    'fulfillment_service',
    "SELECT SUM(coupon_value) AS total FROM t_fulfillment WHERE status = 'DONE'",
  );
  expect(Number(paid.n)).toBe(paidOrders);
  const sales = Number(paid.total);
  const granted = Number(coupons.total);
  return { '1100': sales, '4000': -sales, '5100': granted, '2200': -granted };
}

/** Sessions waiting for a row lock, of the accounting service's connections. */
async function accountingLockWaits(): Promise<number> {
  const [row] = await stack.query<{ n: number }>(
    '',
    `SELECT COUNT(*) AS n FROM information_schema.INNODB_TRX t
       JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
      WHERE t.trx_state = 'LOCK WAIT' AND p.DB = ?`,
    [`${stack.prefix}accounting_service`],
  );
  return Number(row.n);
}

describe('scenario 9: lock-wait timeouts and deadlocks on hot ledger accounts', () => {
  it('retries bookings whole through lock-wait timeouts and a deadlock; balances stay exact', async () => {
    // Every order is in EUR: all bookings move the same five t_account rows.
    await payAndSettle(await stack.openOrders(2));
    const timeoutsBefore = logged('accounting-service', /failed \(ER_LOCK_WAIT_TIMEOUT\)/).length;
    const journals = () =>
      stack.count('accounting_service', "SELECT COUNT(*) AS n FROM t_journal WHERE kind = 'PAYMENT'");

    // A test transaction holds every hot account row while ten callbacks are booked.
    const holder = await connect('accounting_service');
    try {
      await holder.query('START TRANSACTION');
      const [locked] = await holder.query(
        "SELECT code FROM t_account WHERE currency = 'EUR' ORDER BY code FOR UPDATE",
      );
      expect((locked as unknown[]).length).toBe(4);
      const orders = await stack.openOrders(10);
      expect(new Set(await stack.pay(orders))).toEqual(new Set([200]));
      paidOrders += orders.length;
      // Held for several lock-wait timeouts: each failed attempt is logged, then retried.
      await waitFor(
        () =>
          logged('accounting-service', /failed \(ER_LOCK_WAIT_TIMEOUT\)/).length >=
          timeoutsBefore + 3,
        { timeoutMs: 30_000, description: 'three lock-wait timeouts in the accounting service' },
      );
      expect(await journals()).toBe(2); // nothing got past the held rows
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    await stack.settled(paidOrders);
    expect(await journals()).toBe(paidOrders);

    // A deadlock: the test locks 4000 then 1100, a booking locks 1100 then 4000. The test's
    // transaction has written many rows (ballast), so InnoDB rolls the booking back (1213).
    await stack.query('', `CREATE DATABASE IF NOT EXISTS \`${stack.prefix}ballast\``);
    await stack.query(
      '',
      `CREATE TABLE IF NOT EXISTS \`${stack.prefix}ballast\`.t_ballast (id INT PRIMARY KEY)`,
    );
    const victims = await waitFor(
      async () => {
        const [order] = await stack.openOrders(1);
        const eventKey = `OrderPaid:${order.id}:3`;
        const closer = await connect('accounting_service');
        try {
          await closer.query('START TRANSACTION');
          await closer.query(
            `INSERT INTO \`${stack.prefix}ballast\`.t_ballast (id)
             SELECT seq FROM seq_1_to_500`,
          );
          await closer.query(
            "SELECT code FROM t_account WHERE code = '4000' AND currency = 'EUR' FOR UPDATE",
          );
          expect(await stack.pay([order])).toEqual([200]);
          paidOrders += 1;
          await waitFor(async () => (await accountingLockWaits()) > 0, {
            intervalMs: 5,
            description: 'the booking waits for account 4000, holding 1100',
          });
          await closer.query(
            "SELECT code FROM t_account WHERE code = '1100' AND currency = 'EUR' FOR UPDATE",
          );
        } finally {
          await closer.query('ROLLBACK');
          await closer.end();
        }
        await waitFor(
          async () =>
            (await stack.count(
              'accounting_service',
              'SELECT COUNT(*) AS n FROM t_journal WHERE source_event_key = ?',
              [eventKey],
            )) === 1,
          { description: `${eventKey} booked after the deadlock` },
        );
        // The booking may have been between two attempts when the test closed the cycle; then
        // no deadlock happened and another order tries again.
        return logged('accounting-service', new RegExp(`${eventKey} attempt \\d+ failed \\(ER_LOCK_DEADLOCK\\)`));
      },
      { timeoutMs: 60_000, description: 'a booking chosen as a deadlock victim' },
    );
    expect(victims.length).toBeGreaterThan(0);

    await stack.settled(paidOrders);
    expect(await balances()).toEqual(await expectedBalances());
    await expectInvariantsHold();
  });
});
