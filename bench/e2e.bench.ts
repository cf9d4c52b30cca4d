/**
 * npm run bench:e2e: the real stack (four service processes from dist/, MariaDB, the broker)
 * started by scripts/stack/start-stack.ts. First the maximum: a burst of pay callbacks and
 * the rate at which their payment journals get booked. Then callbacks at a fixed rate of half
 * that maximum (open loop), the time from each callback to its payment journal being booked
 * (p50/p99/max), and the peak RSS of each service process under that load.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { createConnection, createPool } from 'mysql2/promise';
import { mapConcurrently } from '../scripts/demo/http-json';
import { SimulatedPayProvider } from '../scripts/demo/pay-provider';
import { Stack, startStack } from '../scripts/stack/start-stack';
import { freePort } from '../test/support/free-port';
import { JournalWatcher } from './e2e/journal-watcher';
import { createPayingOrders, PayingOrder } from './e2e/paying-orders';
import { e2eResults } from './e2e/e2e-results';
import { RssSampler } from './e2e/rss';
import { CpuMeter } from './lib/process-cpu';
import { stageTimes } from './e2e/stages';
import { requireBuild } from './lib/order-service-process';
import { progress } from './lib/progress';
import { runAtFixedRate } from './lib/rate-schedule';
import { writeResults } from './lib/results';
import { spread } from './lib/stats';

const MAX_ORDERS = Number(process.env.BENCH_E2E_MAX_ORDERS ?? 600);
const STEADY_SECONDS = Number(process.env.BENCH_E2E_SECONDS ?? 15);
const LOAD_SHARE = 0.5;
const MYSQL_URL = (process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/+$/, '');
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
      // answers at once): a 100 ms wait, as a latency-minded deployment would choose anyway.
      env: {
        'fulfillment-service': { KAFKA_FETCH_MAX_WAIT_MS: '100' },
        'accounting-service': { KAFKA_FETCH_MAX_WAIT_MS: '100' },
      },
      log: (line) => logs.push(line),
    });
    const pids = Object.fromEntries(
      Object.entries(stack.services).map(([name, service]) => [name, service.pid!]),
    );
    progress(`stack up: ${JSON.stringify(pids)}`);
    const orderUrl = stack.services['order-service'].url;
    const provider = new SimulatedPayProvider(orderUrl, stack.payCallbackSecret);
    const watcher = new JournalWatcher(accounting);
    watcher.start();

    // The maximum: a burst, 16 callbacks in flight, until the last payment journal is booked.
    const burst = await createPayingOrders(orderUrl, MAX_ORDERS);
    progress(`${burst.length} orders PAYING; burst of callbacks…`);
    // CPU used per callback during the burst, by process: on a small machine, what saturates.
    const cpuMeter = CpuMeter.withBenchAndDatabase(pids);
    cpuMeter.start();
    const burstStartEpoch = Date.now();
    const burstSent = await deliverAll(provider, burst, async (send) => {
      await mapConcurrently(burst, 16, (_, i) => send(i));
    });
    const answeredSeconds = (performance.now() - Math.min(...burstSent)) / 1000;
    await watcher.waitForAll(
      burst.map((o) => o.id),
      120_000,
    );
    const lastBooked = Math.max(...burst.map((o) => watcher.seenAt.get(o.id)!));
    const maxRate = burst.length / ((lastBooked - Math.min(...burstSent)) / 1000);
    const rate = LOAD_SHARE * maxRate;
    const cpuPerCallback = Object.fromEntries(
      Object.entries(cpuMeter.read()).map(([name, ms]) => [name, ms / burst.length]),
    );
    const burstWallMs = lastBooked - Math.min(...burstSent);
    progress(
      `burst CPU ms per callback: ${Object.entries(cpuPerCallback)
        .map(([n, ms]) => `${n} ${ms.toFixed(2)}`)
        .join(', ')}; ` +
        `wall ${(burstWallMs / burst.length).toFixed(2)} ms per callback on ${cpus().length} CPUs`,
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

    // The steady load: open loop at half the maximum.
    const count = Math.max(1, Math.round(rate * STEADY_SECONDS));
    const steady = await createPayingOrders(orderUrl, count);
    progress(
      `${steady.length} orders PAYING; ${STEADY_SECONDS} s of callbacks at ${rate.toFixed(0)}/s…`,
    );
    const rss = new RssSampler(pids);
    rss.start();
    let lateMs = 0;
    const sentAt = await deliverAll(provider, steady, async (send) => {
      lateMs = (await runAtFixedRate(steady.length, rate, send)).lateMs;
    });
    await watcher.waitForAll(
      steady.map((o) => o.id),
      120_000,
    );
    rss.stop();
    await watcher.stop();
    const latencies = steady.map((o, i) => watcher.seenAt.get(o.id)! - sentAt[i]);
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
      machineMsPerCallback: (burstWallMs / burst.length) * cpus().length,
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
    await accounting.end();
    await orderDb.end();
    await stack?.stop();
    const admin = await createConnection({ uri: MYSQL_URL });
    for (const db of DATABASES) await admin.query(`DROP DATABASE IF EXISTS \`${prefix}${db}\``);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
