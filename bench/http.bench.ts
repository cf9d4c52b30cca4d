/**
 * npm run bench:http: the pay callback of the real order-service process (signature check,
 * validation, the transaction with the outbox insert, the relay publishing in the same
 * process) driven by autocannon on loopback, against the raw rate of the same transaction at
 * the same concurrency; and a bare Nest endpoint against a raw Express handler on the same
 * adapter. Rounds alternate and each figure is the median of its rounds (the machine is
 * shared and noisy). CPU time per transaction of every process involved and InnoDB lock waits
 * are measured in the same rounds, to say what bounds the rate.
 */
import 'reflect-metadata';
import { startTestEnvironment } from '@outbox-inbox/test-kit';
import { createPool, Pool } from 'mysql2/promise';
import { OrderMigrations } from '../apps/order-service/src/migrations';
import { compareBareEndpoints } from './http/bare-comparison';
import { BareServer, startServerScript } from './http/bare-process';
import { callbackRound, drainOutbox, expectAllPaidOnce } from './http/pay-callbacks';
import { BenchDatabase, createBenchDatabase, insertPayingOrders } from './lib/bench-database';
import { ServiceProcess } from '../scripts/stack/service-process';
import { counterDelta, explainAccess, innodbCounters } from './lib/innodb-status';
import { startOrderService } from './lib/order-service-process';
import { CpuMeter } from './lib/process-cpu';
import { progress } from './lib/progress';
import { BenchResult, ratioResult, writeResults } from './lib/results';
import { shapeRate } from './lib/shape-runner';
import { OwnedOrder, payCallback } from './lib/statement-shapes';
import { median, spread } from './lib/stats';

const CONNECTIONS = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CALLBACKS = Number(process.env.BENCH_HTTP_CALLBACKS ?? 3_000);
const BARE_SECONDS = Number(process.env.BENCH_HTTP_BARE_SECONDS ?? 2);
const BARE_ROUNDS = Number(process.env.BENCH_HTTP_BARE_ROUNDS ?? 5);
const SECRET = 'bench-callback-secret-0123456789';
const CALLBACK_TARGET = 0.6;
/** The order-service's CPU per callback, at most this many times the raw client's per transaction. */
const SERVICE_CPU_TARGET = 2;
const BARE_TARGET = 0.85;

const sum = (values: Record<string, number>) => Object.values(values).reduce((a, b) => a + b, 0);

async function main(): Promise<void> {
  const env = await startTestEnvironment();
  try {
    const raw = await createBenchDatabase(env, 'bench_http_raw', CONNECTIONS, OrderMigrations);
    try {
      const { service, databaseUrl } = await startOrderService(env, SECRET);
      const servicePool = createPool({ uri: databaseUrl, connectionLimit: 2, timezone: 'Z' });
      const handler = await startServerScript('raw-callback-server.ts', [
        raw.url,
        SECRET,
        String(CONNECTIONS),
      ]);
      try {
        await measure(raw, service, servicePool, handler);
      } finally {
        await handler.stop();
        await service.stop();
        await servicePool.end();
      }
    } finally {
      await raw.close();
    }
  } finally {
    await env.stop(); // drops the databases
  }
}

/** The alternating rounds, the bare endpoints, and bench/results/http.json. */
async function measure(
  raw: BenchDatabase,
  service: ServiceProcess,
  servicePool: Pool,
  handler: BareServer,
): Promise<void> {
  progress(`order-service pid ${service.pid} at ${service.url}; ${CONNECTIONS} connections`);
  await callbackRound(service.url, SECRET, await insertPayingOrders(servicePool, 300), CONNECTIONS);
  await callbackRound(handler.url, SECRET, await insertPayingOrders(raw.pool, 300), CONNECTIONS);
  await drainOutbox(servicePool);

  const meter = CpuMeter.withBenchAndDatabase({
    'order-service': service.pid!,
    'bare handler': handler.pid,
  });
  const rates = { raw: [] as number[], http: [] as number[], handler: [] as number[] };
  const rawLatencies: number[] = [];
  const httpLatency = { p50: [] as number[], p99: [] as number[] };
  // CPU ms per transaction: raw = this process (the client) + MariaDB; HTTP = the service +
  // this process (autocannon) + MariaDB.
  const cpu = {
    rawTotal: [] as number[],
    rawClient: [] as number[],
    httpTotal: [] as number[],
    service: [] as number[],
    handler: [] as number[],
  };
  const lockWaits: number[] = [];
  const paid: OwnedOrder[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const rawOrders = await insertPayingOrders(raw.pool, CALLBACKS);
    meter.start();
    const rawRate = await shapeRate(
      raw.pool,
      payCallback,
      rawOrders,
      CONNECTIONS,
      { oncePerOrder: true },
      rawLatencies,
    );
    const rawCpu = meter.read();
    rates.raw.push(rawRate);
    cpu.rawClient.push(rawCpu.bench / CALLBACKS);
    cpu.rawTotal.push((rawCpu.bench + (rawCpu.mariadbd ?? 0)) / CALLBACKS);

    // The same transaction behind a hand-written node:http handler: the HTTP ceiling.
    const handlerOrders = await insertPayingOrders(raw.pool, CALLBACKS);
    let handlerCpu: Record<string, number> = {};
    meter.start();
    const bare = await callbackRound(handler.url, SECRET, handlerOrders, CONNECTIONS, () => {
      handlerCpu = meter.read();
    });
    cpu.handler.push(handlerCpu['bare handler'] / CALLBACKS);
    rates.handler.push(bare.requestsPerSecond);

    const orders = await insertPayingOrders(servicePool, CALLBACKS);
    const countersBefore = await innodbCounters(servicePool);
    let httpCpu: Record<string, number> = {};
    meter.start();
    const http = await callbackRound(service.url, SECRET, orders, CONNECTIONS, () => {
      httpCpu = meter.read();
    });
    lockWaits.push(counterDelta(countersBefore, await innodbCounters(servicePool)).rowLockWaits);
    cpu.service.push(httpCpu['order-service'] / CALLBACKS);
    cpu.httpTotal.push(sum(httpCpu) / CALLBACKS);
    paid.push(...orders);
    rates.http.push(http.requestsPerSecond);
    httpLatency.p50.push(http.p50);
    httpLatency.p99.push(http.p99);
    progress(
      `round ${round}/${ROUNDS}: raw ${rawRate.toFixed(0)} tx/s, bare handler ${bare.requestsPerSecond.toFixed(0)} req/s ` +
        `(${cpu.handler.at(-1)!.toFixed(2)} ms CPU), HTTP ${http.requestsPerSecond.toFixed(0)} req/s ` +
        `(p50 ${http.p50} ms, p99 ${http.p99} ms); CPU ms per transaction: raw ${cpu.rawTotal.at(-1)!.toFixed(2)}, ` +
        `HTTP ${cpu.httpTotal.at(-1)!.toFixed(2)} (order-service ${cpu.service.at(-1)!.toFixed(2)})`,
    );
    await drainOutbox(servicePool);
  }
  await expectAllPaidOnce(servicePool, paid);
  // The statements' plans: each should be a point access on a unique key.
  const plans = await explainAccess(servicePool, [
    ['SELECT * FROM t_pay_notification WHERE notify_id = ?', ['ntf_x']],
    ['SELECT * FROM t_order WHERE id = ?', [paid[0].id]],
    ['UPDATE t_order SET version = version + 1 WHERE id = ? AND version = ?', [paid[0].id, 2]],
  ]);
  progress(
    `plans: ${plans.join('; ')}; InnoDB row lock waits per HTTP round (server-wide): ${lockWaits.join(', ')}`,
  );

  const bare = await compareBareEndpoints(CONNECTIONS, BARE_ROUNDS, BARE_SECONDS);

  const rawRate = median(rates.raw);
  const httpRate = median(rates.http);
  const rawSpread = spread(rawLatencies);
  const nestRate = median(bare.nest);
  const expressRate = median(bare.express);
  const rawBaseline = `raw pay-callback transaction (mysql2), ${CONNECTIONS} connections`;
  const handlerRate = median(rates.handler);
  const handlerMetric = `the raw transaction behind a hand-written node:http handler (body, HMAC check, JSON; no framework, ORM, validation, logging or relay), ${CONNECTIONS} connections, median of ${ROUNDS} rounds of ${CALLBACKS}`;
  const results: BenchResult[] = [
    {
      metric: `pay callback over HTTP (signature, validation, transaction, outbox), ${CONNECTIONS} connections, median of ${ROUNDS} rounds of ${CALLBACKS}`,
      value: httpRate,
      unit: 'req/s',
      baseline: rawBaseline,
      baselineValue: rawRate,
      ratio: httpRate / rawRate,
      target: `>= ${CALLBACK_TARGET}x raw`,
      met: httpRate / rawRate >= CALLBACK_TARGET,
    },
    ratioResult(
      `pay callback latency p50, ${CONNECTIONS} connections (median of rounds)`,
      median(httpLatency.p50),
      'ms',
      `${rawBaseline}, p50`,
      rawSpread.p50,
      'informational (lower is better)',
    ),
    ratioResult(
      `pay callback latency p99, ${CONNECTIONS} connections (median of rounds)`,
      median(httpLatency.p99),
      'ms',
      `${rawBaseline}, p99`,
      rawSpread.p99,
      'informational (lower is better)',
    ),
    {
      metric: 'order-service CPU time per callback (median of rounds)',
      value: median(cpu.service),
      unit: 'ms',
      baseline: 'raw client CPU time per transaction',
      baselineValue: median(cpu.rawClient),
      ratio: median(cpu.service) / median(cpu.rawClient),
      target: `<= ${SERVICE_CPU_TARGET}x the raw client (what the service adds per request)`,
      met: median(cpu.service) / median(cpu.rawClient) <= SERVICE_CPU_TARGET,
    },
    ratioResult(
      handlerMetric,
      handlerRate,
      'req/s',
      rawBaseline,
      rawRate,
      'informational: the ceiling of the pay-callback ratio for any HTTP service on this machine',
    ),
    ratioResult(
      'pay callback over HTTP against the hand-written handler',
      httpRate,
      'req/s',
      'the raw transaction behind a hand-written node:http handler',
      handlerRate,
      'informational: what Nest, TypeORM, validation, logging, tracing and the relay cost',
    ),
    ratioResult(
      'hand-written handler CPU time per callback (median of rounds)',
      median(cpu.handler),
      'ms',
      'raw client CPU time per transaction',
      median(cpu.rawClient),
      'informational: the floor of the order-service CPU ratio for any HTTP service',
    ),
    ratioResult(
      'CPU time per callback, all processes (order-service, load generator, MariaDB)',
      median(cpu.httpTotal),
      'ms',
      'raw: client + MariaDB',
      median(cpu.rawTotal),
      'informational (on a saturated machine the rate ratio is about 1 / this ratio)',
    ),
    ratioResult(
      `InnoDB row lock waits per HTTP round of ${CALLBACKS} callbacks (server-wide, median)`,
      median(lockWaits),
      'waits',
      'callbacks per round',
      CALLBACKS,
      'informational (near 0: not bound by row locks)',
    ),
    {
      metric: `bare Nest GET endpoint (Express adapter), ${CONNECTIONS} connections, median of ${BARE_ROUNDS} alternating rounds of ${BARE_SECONDS} s`,
      value: nestRate,
      unit: 'req/s',
      baseline: 'raw Express handler on the same adapter',
      baselineValue: expressRate,
      ratio: nestRate / expressRate,
      target: `>= ${BARE_TARGET}x raw Express`,
      met: nestRate / expressRate >= BARE_TARGET,
    },
  ];
  writeResults('http', results);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
