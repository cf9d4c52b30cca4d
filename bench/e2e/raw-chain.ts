import { EventEnvelope } from '@outbox-inbox/messaging';
import { FulfillmentDoneV1Payload, OrderPaidV1Payload } from '@app/trading-events';
import { Pool, PoolConnection } from 'mysql2/promise';
import { CpuMeter } from '../lib/process-cpu';
import { RawChainPools, ServiceDatabase } from './raw-chain-databases';
import {
  ACCOUNTING,
  bookFulfillmentDone,
  bookOrderPaid,
  FULFILLMENT,
  fulfillOrderPaid,
  grantCoupon,
  ignoreEvent,
  LedgerAccounts,
} from './raw-consumer-steps';
import { createOrder, payCallback, RawOrder, startPayment } from './raw-order-steps';

/** One phase of the raw chain: its duration and the CPU of this process and MariaDB in it. */
export interface RawPhase {
  seconds: number;
  /** CPU ms by process (`bench`, and `mariadbd` when it runs on this machine). */
  cpuMs: Record<string, number>;
}

/** What one raw whole-chain run measured. */
export interface RawChainRun {
  orders: number;
  lanes: number;
  /** Create and pay every order, each event taken in (and ignored) by both consumers. */
  toPaying: RawPhase;
  /** The callback on: PAID, fulfillment with the coupon grant, both journals. */
  fromCallback: RawPhase;
}

type LaneConnections = Record<ServiceDatabase, PoolConnection>;

/**
 * Every database statement of `orders` orders' lives, on `lanes` lanes at once (each holding
 * one connection per service database, each taking its orders one after the other through
 * every step, each step its own transaction). Two timed phases: up to PAYING (what bench:e2e
 * does before its burst) and from the pay callback on (what its burst measures). Checks at the
 * end that every order has its two journals, so a rate never counts work not done.
 */
export async function runRawChain(
  pools: RawChainPools,
  orders: number,
  lanes: number,
  accounts: LedgerAccounts,
): Promise<RawChainRun> {
  if (orders < lanes) throw new Error(`${orders} orders cannot feed ${lanes} lanes`);
  await openLedgerAccounts(pools.accounting, accounts);
  const held: LaneConnections[] = [];
  try {
    for (let i = 0; i < lanes; i++) {
      held.push({
        order: await pools.order.getConnection(),
        fulfillment: await pools.fulfillment.getConnection(),
        accounting: await pools.accounting.getConnection(),
        coupon: await pools.coupon.getConnection(),
      });
    }
    const perLane = held.map((_, lane) =>
      Array.from({ length: orders }, (_, i) => i).filter((i) => i % lanes === lane),
    );
    const paying: Array<RawOrder | undefined> = new Array(orders);
    const before = await journalCounts(held[0].accounting);
    const toPaying = await phase(() =>
      Promise.all(
        held.map(async (db, lane) => {
          for (const i of perLane[lane]) {
            const { order, event: created } = await createOrder(db.order, {
              userId: `bench-${i % 50}`,
              amount: 1_000 + i,
            });
            await ignoreEvent(db.fulfillment, FULFILLMENT, created);
            await ignoreEvent(db.accounting, ACCOUNTING, created);
            const started = await startPayment(db.order, order);
            await ignoreEvent(db.fulfillment, FULFILLMENT, started);
            await ignoreEvent(db.accounting, ACCOUNTING, started);
            paying[i] = order;
          }
        }),
      ),
    );
    const fromCallback = await phase(() =>
      Promise.all(
        held.map(async (db, lane) => {
          for (const i of perLane[lane]) {
            const paid = (await payCallback(
              db.order,
              paying[i]!,
            )) as EventEnvelope<OrderPaidV1Payload>;
            const done: EventEnvelope<FulfillmentDoneV1Payload> = await fulfillOrderPaid(
              db.fulfillment,
              (grant) => grantCoupon(db.coupon, grant),
              paid,
            );
            await bookOrderPaid(db.accounting, paid, accounts);
            await bookFulfillmentDone(db.accounting, done, accounts);
          }
        }),
      ),
    );
    const after = await journalCounts(held[0].accounting);
    const booked = {
      payments: after.payments - before.payments,
      coupons: after.coupons - before.coupons,
    };
    if (booked.payments !== orders || booked.coupons !== orders) {
      throw new Error(`raw chain booked ${JSON.stringify(booked)} journals for ${orders} orders`);
    }
    return { orders, lanes, toPaying, fromCallback };
  } finally {
    for (const connections of held) {
      for (const connection of Object.values(connections)) connection.release();
    }
  }
}

/**
 * Opens the ledger's accounts before the first booking, as they are once the ledger has booked
 * anything: the services' insert-on-first-use branch is a one-off, not part of an order's cost.
 */
export async function openLedgerAccounts(
  accounting: Pool,
  accounts: LedgerAccounts,
): Promise<void> {
  await accounting.query(
    `INSERT IGNORE INTO t_account (code, currency, name, type, balance, version, created_at, updated_at)
     VALUES ?`,
    [
      Object.values(accounts).map((a) => [
        a.code,
        'EUR',
        a.name,
        a.type,
        0,
        1,
        new Date(),
        new Date(),
      ]),
    ],
  );
}

/** Journals of each kind in the raw accounting database (a run may follow earlier ones). */
async function journalCounts(
  connection: PoolConnection,
): Promise<{ payments: number; coupons: number }> {
  const [[count]] = (await connection.query(
    "SELECT SUM(kind = 'PAYMENT') AS payments, SUM(kind = 'COUPON_GRANT') AS coupons FROM t_journal",
  )) as unknown as [[{ payments: string | null; coupons: string | null }]];
  return { payments: Number(count.payments ?? 0), coupons: Number(count.coupons ?? 0) };
}

async function phase(work: () => Promise<unknown>): Promise<RawPhase> {
  const cpu = CpuMeter.withBenchAndDatabase({});
  cpu.start();
  const started = performance.now();
  await work();
  return { seconds: (performance.now() - started) / 1000, cpuMs: cpu.read() };
}
