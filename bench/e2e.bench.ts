/**
 * npm run bench:e2e: the real stack (four service processes from dist/, MariaDB, the broker)
 * started by scripts/stack/start-stack.ts. First the maximum: a burst of pay callbacks and
 * the rate at which their payment journals get booked. Then callbacks at a fixed rate of half
 * that maximum (open loop), the time from each callback to its payment journal being booked
 * (p50/p99/max); the peak RSS of each service process is sampled from the burst to the end of
 * that load. Between the two, in the same run: the raw whole-chain baseline, every database
 * statement of the burst's orders' lives run by raw mysql2 at the burst's concurrency, with no
 * services and no broker.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { waitFor } from '@app/testing';
import { createConnection, createPool, Pool } from 'mysql2/promise';
import { Accounts } from '../apps/accounting-service/src/ledger/domain/chart-of-accounts';
import { AccountingMigrations } from '../apps/accounting-service/src/migrations';
import { CouponMigrations } from '../apps/coupon-provider/src/migrations';
import { FulfillmentMigrations } from '../apps/fulfillment-service/src/migrations';
import { OrderMigrations } from '../apps/order-service/src/migrations';
import { mapConcurrently } from '../scripts/demo/http-json';
import { SimulatedPayProvider } from '../scripts/demo/pay-provider';
import { Stack, startStack } from '../scripts/stack/start-stack';
import { freePort } from '../test/support/free-port';
import { JournalWatcher } from './e2e/journal-watcher';
import { RawChainRun, runRawChain } from './e2e/raw-chain';
import { createRawChainDatabases, RawChainDatabases } from './e2e/raw-chain-databases';
import { createPayingOrders, PayingOrder } from './e2e/paying-orders';
import { e2eResults } from './e2e/e2e-results';
import { RssSampler } from './e2e/rss';
import { cpuProfileEnv } from './lib/cpu-profile-env';
import { CpuMeter, WriteCallMeter } from './lib/process-cpu';
import { stageTimes } from './e2e/stages';
import { requireBuild } from './lib/order-service-process';
import { progress } from './lib/progress';
import { runAtFixedRate } from './lib/rate-schedule';
import { writeResults } from './lib/results';
import { spread } from './lib/stats';

const MAX_ORDERS = Number(process.env.BENCH_E2E_MAX_ORDERS ?? 600);
const STEADY_SECONDS = Number(process.env.BENCH_E2E_SECONDS ?? 15);
/** Orders of the raw whole-chain baseline (default: as many as the burst). */
const RAW_ORDERS = Number(process.env.BENCH_E2E_RAW_ORDERS ?? MAX_ORDERS);
/** Callbacks in flight in the burst, and lanes of the raw baseline. */
const IN_FLIGHT = 16;
const LOAD_SHARE = 0.5;
/** The consumers' fetch wait; on the librdkafka mock, each fetch answers only when it is over. */
const FETCH_MAX_WAIT_MS = process.env.BENCH_E2E_FETCH_MAX_WAIT_MS ?? '100';
const MYSQL_URL = (process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/+$/, '');
/** What the raw whole-chain baseline needs of the services: their schemas and the ledger's chart. */
const RAW_CHAIN_MIGRATIONS = {
  order: OrderMigrations,
  fulfillment: FulfillmentMigrations,
  accounting: AccountingMigrations,
  coupon: CouponMigrations,
};
const LEDGER_ACCOUNTS = {
  paymentClearing: Accounts.PAYMENT_CLEARING,
  salesRevenue: Accounts.SALES_REVENUE,
  couponExpense: Accounts.COUPON_EXPENSE,
  couponLiability: Accounts.COUPON_LIABILITY,
};
const DATABASES = ['order_service', 'fulfillment_service', 'accounting_service', 'coupon_provider'];

/** Delivers one callback per order; resolves with each one's send time (performance.now()). */
async function deliverAll(
  provider: SimulatedPayProvider,
  orders: PayingOrder[],
  deliver: (send: (i: number) => Promise<number>) => Promise<void>,
): Promise<number[]> {
  const notifications = orders.map((o) => provider.notification(o));
  const sentAt: number[] = new Array(orders.length);
  await deliver(async (i) => {
    sentAt[i] = performance.now();
    const status = await provider.deliver(notifications[i]);
    if (status !== 200) throw new Error(`callback for order ${orders[i].id} answered ${status}`);
    return status;
  });
  return sentAt;
}

async function main(): Promise<void> {
  requireBuild('order-service', 'fulfillment-service', 'accounting-service', 'coupon-provider');
  const prefix = `bench_e2e_${randomBytes(3).toString('hex')}_`;
  const logs: string[] = [];
  let stack: Stack | undefined;
  let raw: RawChainDatabases | undefined;
  let watcher: JournalWatcher | undefined;
  const accounting = createPool({
    uri: `${MYSQL_URL}/${prefix}accounting_service`,
    connectionLimit: 1,
    timezone: 'Z',
  });
  const orderDb = createPool({
    uri: `${MYSQL_URL}/${prefix}order_service`,
    connectionLimit: 1,
    timezone: 'Z',
  });
  try {
    // Created (and migrated) first, so that their writes are long flushed when they are used.
    raw = await createRawChainDatabases(
      MYSQL_URL,
      `${prefix}raw_`,
      IN_FLIGHT,
      RAW_CHAIN_MIGRATIONS,
    );
    stack = await startStack({
      mysqlUrl: MYSQL_URL,
      databasePrefix: prefix,
      topicPrefix: prefix.replace(/_/g, '.'),
      ports: {
        'order-service': await freePort(),
        'fulfillment-service': await freePort(),
        'accounting-service': await freePort(),
        'coupon-provider': await freePort(),
      },
      // The librdkafka mock answers a fetch only when its wait is over, data or not (a broker
      // answers at once): a 100 ms wait (BENCH_E2E_FETCH_MAX_WAIT_MS), as a latency-minded
      // deployment would choose anyway. On the mock, every consumer hop waits 0 to that long.
      // BENCH_CPU_PROF=<dir>: every service writes its V8 CPU profile there when it stops.
      env: {
        'order-service': cpuProfileEnv(),
        'coupon-provider': cpuProfileEnv(),
        'fulfillment-service': { KAFKA_FETCH_MAX_WAIT_MS: FETCH_MAX_WAIT_MS, ...cpuProfileEnv() },
        'accounting-service': { KAFKA_FETCH_MAX_WAIT_MS: FETCH_MAX_WAIT_MS, ...cpuProfileEnv() },
      },
      log: (line) => logs.push(line),
    });
    const pids = Object.fromEntries(
      Object.entries(stack.services).map(([name, service]) => [name, service.pid!]),
    );
    progress(`stack up: ${JSON.stringify(pids)}`);
    const orderUrl = stack.services['order-service'].url;
    const provider = new SimulatedPayProvider(orderUrl, stack.payCallbackSecret);
    const journals = new JournalWatcher(accounting);
    watcher = journals;
    journals.start();

    // The maximum: a burst, IN_FLIGHT callbacks in flight, until the last payment journal is booked.
    // Peak RSS from the burst's orders to the end of the steady load: a heap grown in the burst counts.
    const rss = new RssSampler(pids);
    rss.start();
    const burst = await createPayingOrders(orderUrl, MAX_ORDERS);
    progress(`${burst.length} orders PAYING; burst of callbacks…`);
    // CPU used per callback during the burst, by process: on a small machine, what saturates.
    const cpuMeter = CpuMeter.withBenchAndDatabase(pids);
    const writeMeter = new WriteCallMeter(pids);
    cpuMeter.start();
    writeMeter.start();
    const cpuStarted = performance.now();
    const burstStartEpoch = Date.now();
    const burstSent = await deliverAll(provider, burst, async (send) => {
      await mapConcurrently(burst, IN_FLIGHT, (_, i) => send(i));
    });
    const answeredSeconds = (performance.now() - Math.min(...burstSent)) / 1000;
    await journals.waitForAll(
      burst.map((o) => o.id),
      120_000,
    );
    const lastBooked = Math.max(...burst.map((o) => journals.seenAt.get(o.id)!));
    const maxRate = burst.length / ((lastBooked - Math.min(...burstSent)) / 1000);
    const rate = LOAD_SHARE * maxRate;
    // CPU is read once the whole chain is done with the burst: the coupon journals come last.
    await waitForCouponJournals(accounting, burst.length);
    const cpuPerCallback = Object.fromEntries(
      Object.entries(cpuMeter.read()).map(([name, ms]) => [name, ms / burst.length]),
    );
    const writesPerCallback = Object.fromEntries(
      Object.entries(writeMeter.read()).map(([name, calls]) => [name, calls / burst.length]),
    );
    const cpuWallMs = performance.now() - cpuStarted;
    progress(
      `burst CPU ms per callback: ${Object.entries(cpuPerCallback)
        .map(([n, ms]) => `${n} ${ms.toFixed(2)}`)
        .join(', ')}; ` +
        `wall ${(cpuWallMs / burst.length).toFixed(2)} ms per callback on ${cpus().length} CPUs; ` +
        `write syscalls per callback: ${Object.entries(writesPerCallback)
          .map(([n, calls]) => `${n} ${calls.toFixed(1)}`)
          .join(', ')}`,
    );
    const burstStages = await stageTimes(
      orderDb,
      accounting,
      burst.map((o) => o.id),
    );
    const burstSeconds = {
      answered: answeredSeconds,
      sent: (burstStages.lastSentMs - burstStartEpoch) / 1000,
      booked: (burstStages.lastBookedMs - burstStartEpoch) / 1000,
    };
    progress(
      `burst: all callbacks answered after ${burstSeconds.answered.toFixed(1)} s, all OrderPaid sent ` +
        `after ${burstSeconds.sent.toFixed(1)} s, all journals booked after ${burstSeconds.booked.toFixed(1)} s`,
    );
    progress(
      `maximum ${maxRate.toFixed(0)} callbacks/s booked end to end; steady at ${rate.toFixed(0)}/s`,
    );

    // The raw whole-chain baseline, while the stack stands idle.
    progress(`raw whole-chain statements: ${RAW_ORDERS} orders, ${IN_FLIGHT} at once…`);
    const rawChain = await runRawChain(raw.pools, RAW_ORDERS, IN_FLIGHT, LEDGER_ACCOUNTS);
    await raw.close();
    raw = undefined;
    progress(describeRawChain(rawChain));

    // The steady load: open loop at half the maximum.
    const count = Math.max(1, Math.round(rate * STEADY_SECONDS));
    const steady = await createPayingOrders(orderUrl, count);
    progress(
      `${steady.length} orders PAYING; ${STEADY_SECONDS} s of callbacks at ${rate.toFixed(0)}/s…`,
    );
    let lateMs = 0;
    const sentAt = await deliverAll(provider, steady, async (send) => {
      lateMs = (await runAtFixedRate(steady.length, rate, send)).lateMs;
    });
    await journals.waitForAll(
      steady.map((o) => o.id),
      120_000,
    );
    rss.stop();
    await journals.stop();
    const latencies = steady.map((o, i) => journals.seenAt.get(o.id)! - sentAt[i]);
    const booked = spread(latencies);
    const stages = await stageTimes(
      orderDb,
      accounting,
      steady.map((o) => o.id),
    );
    progress(
      `stages: outbox row → SENT p50 ${stages.relay.p50} ms, p99 ${stages.relay.p99} ms; ` +
        `SENT → journal p50 ${stages.consume.p50} ms, p99 ${stages.consume.p99} ms`,
    );
    progress(
      `callback to journal booked: p50 ${booked.p50.toFixed(1)} ms, p99 ${booked.p99.toFixed(1)} ms, ` +
        `max ${booked.max.toFixed(1)} ms (sends up to ${lateMs.toFixed(1)} ms late); ` +
        `peak RSS ${JSON.stringify(Object.fromEntries(Object.entries(rss.peakMb).map(([k, v]) => [k, Math.round(v)])))} MB`,
    );

    const results = e2eResults({
      maxRate,
      burstSize: burst.length,
      answeredRate: burst.length / burstSeconds.answered,
      cpuPerCallback,
      writesPerCallback,
      rawChain,
      machineMsPerCallback: (cpuWallMs / burst.length) * cpus().length,
      cpuCount: cpus().length,
      stages,
      booked,
      load: `${rate.toFixed(0)} callbacks/s (${LOAD_SHARE * 100}% of max) for ${STEADY_SECONDS} s, polled every 10 ms`,
      rssPeakMb: rss.peakMb,
    });
    writeResults('e2e', results);
  } catch (error) {
    process.stderr.write(`${logs.slice(-40).join('\n')}\n`);
    throw error;
  } finally {
    // Its polling loop stops before its pool closes, so a failure above is the one reported.
    await watcher?.stop().catch(() => undefined);
    await accounting.end();
    await orderDb.end();
    await stack?.stop();
    await raw?.close();
    const admin = await createConnection({ uri: MYSQL_URL });
    for (const db of DATABASES) await admin.query(`DROP DATABASE IF EXISTS \`${prefix}${db}\``);
    await admin.end();
  }
}

/** Waits until the accounting database holds `count` coupon journals (one per paid order). */
async function waitForCouponJournals(accounting: Pool, count: number): Promise<void> {
  await waitFor(
    async () => {
      const [[row]] = (await accounting.query(
        "SELECT COUNT(*) AS n FROM t_journal WHERE kind = 'COUPON_GRANT'",
      )) as unknown as [[{ n: number | string }]];
      return Number(row.n) >= count;
    },
    { timeoutMs: 120_000, intervalMs: 20, description: `${count} coupon journals booked` },
  );
}

function describeRawChain(run: RawChainRun): string {
  const perOrder = (cpu: Record<string, number>) =>
    Object.entries(cpu)
      .map(([name, ms]) => `${name} ${(ms / run.orders).toFixed(2)}`)
      .join(', ');
  return (
    `raw whole chain: ${(run.orders / (run.toPaying.seconds + run.fromCallback.seconds)).toFixed(0)} orders/s ` +
    `(up to PAYING ${(run.orders / run.toPaying.seconds).toFixed(0)}/s, CPU ms per order ${perOrder(run.toPaying.cpuMs)}; ` +
    `from the callback on ${(run.orders / run.fromCallback.seconds).toFixed(0)}/s, CPU ms per order ${perOrder(run.fromCallback.cpuMs)})`
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
