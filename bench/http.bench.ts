/**
 * npm run bench:http: the pay callback of the real order-service process (signature check,
 * validation, the transaction with the outbox insert, the relay publishing in the same
 * process) driven by autocannon on loopback, against the raw rate of the same transaction at
 * the same concurrency; and a bare Nest endpoint against a raw Express handler on the same
 * adapter. Rounds alternate and each figure is the median of its rounds (the machine is
 * shared and noisy).
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { startTestEnvironment } from '@app/testing';
import { OrderMigrations } from '../apps/order-service/src/migrations';
import { createPool, Pool } from 'mysql2/promise';
import { signPayCallback } from '../apps/order-service/src/payments/pay-callback.signature';
import { startBareServer } from './http/bare-process';
import { createBenchDatabase, insertPayingOrders } from './lib/bench-database';
import { drive, LoadRequest, LoadResult } from './lib/load';
import { startOrderService } from './lib/order-service-process';
import { counterDelta, explainAccess, innodbCounters } from './lib/innodb-status';
import { cpuMs } from './e2e/rss';
import { progress } from './lib/progress';
import { BenchResult, writeResults } from './lib/results';
import { shapeRate } from './lib/shape-runner';
import { OwnedOrder, payCallback } from './lib/statement-shapes';
import { median, spread } from './lib/stats';

const CONNECTIONS = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CALLBACKS = Number(process.env.BENCH_HTTP_CALLBACKS ?? 1_500);
const BARE_SECONDS = Number(process.env.BENCH_HTTP_BARE_SECONDS ?? 2);
const BARE_ROUNDS = Number(process.env.BENCH_HTTP_BARE_ROUNDS ?? 5);
const SECRET = 'bench-callback-secret-0123456789';
const CALLBACK_TARGET = 0.7;
const BARE_TARGET = 0.85;

/** Signed callbacks for `orders`, one each, as the provider sends them (signed just now). */
function signedCallbacks(orders: OwnedOrder[]): LoadRequest[] {
  const timestamp = String(Math.floor(Date.now() / 1000));
  return orders.map((order) => {
    const body = JSON.stringify({
      notifyId: `ntf_${randomUUID()}`,
      payOrderId: order.payOrderId,
      orderId: order.id,
      amount: order.amount,
      currency: 'EUR',
      status: 'SUCCESS',
      paidAt: new Date().toISOString(),
    });
    return {
      method: 'POST',
      path: '/payments/callback',
      body,
      headers: {
        'content-type': 'application/json',
        'x-pay-timestamp': timestamp,
        'x-pay-signature': signPayCallback(SECRET, timestamp, Buffer.from(body)),
      },
    };
  });
}

/** Delivers one callback per order over CONNECTIONS connections; every answer must be 200. */
async function callbackRound(url: string, orders: OwnedOrder[]): Promise<LoadResult> {
  const requests = signedCallbacks(orders);
  let next = 0;
  return drive({
    baseUrl: url,
    connections: CONNECTIONS,
    amount: requests.length,
    next: () => requests[next++ % requests.length],
  });
}

/** Waits until the service's relay has published everything (so the next round starts even). */
async function drainOutbox(pool: Pool): Promise<void> {
  for (;;) {
    const [rows] = await pool.query(
      "SELECT COUNT(*) AS n FROM t_outbox WHERE status IN ('NEW', 'SENDING')",
    );
    if (Number((rows as Array<{ n: number }>)[0].n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function main(): Promise<void> {
  const env = await startTestEnvironment();
  const raw = await createBenchDatabase(env, 'bench_http_raw', CONNECTIONS, OrderMigrations);
  const { service, databaseUrl } = await startOrderService(env, SECRET);
  const servicePool = createPool({ uri: databaseUrl, connectionLimit: 2, timezone: 'Z' });
  const nest = await startBareServer('nest');
  const express = await startBareServer('express');
  try {
    progress(`order-service pid ${service.pid} at ${service.url}; ${CONNECTIONS} connections`);
    const warmup = await insertPayingOrders(servicePool, 300);
    await callbackRound(service.url, warmup);
    await drainOutbox(servicePool);

    const rates = { raw: [] as number[], http: [] as number[] };
    const rawLatencies: number[] = [];
    const httpLatency = { p50: [] as number[], p99: [] as number[] };
    const paid: OwnedOrder[] = [];
    const locks = { httpMs: 0, http: [] as number[] };
    // CPU per transaction: the raw loop's (this process) and the service's (its /proc stat).
    const cpu = { raw: [] as number[], service: [] as number[] };
    for (let round = 1; round <= ROUNDS; round++) {
      const rawOrders = await insertPayingOrders(raw.pool, CALLBACKS);
      const rawCpuBefore = process.cpuUsage();
      const rawRate = await shapeRate(
        raw.pool,
        payCallback,
        rawOrders,
        CONNECTIONS,
        { oncePerOrder: true },
        rawLatencies,
      );
      rates.raw.push(rawRate);
      const rawCpu = process.cpuUsage(rawCpuBefore);
      cpu.raw.push((rawCpu.user + rawCpu.system) / 1000 / CALLBACKS);
      const orders = await insertPayingOrders(servicePool, CALLBACKS);
      const countersBefore = await innodbCounters(servicePool);
      const serviceCpuBefore = cpuMs(service.pid!);
      const http = await callbackRound(service.url, orders);
      cpu.service.push((cpuMs(service.pid!) - serviceCpuBefore) / CALLBACKS);
      const waits = counterDelta(countersBefore, await innodbCounters(servicePool));
      locks.http.push(waits.rowLockWaits);
      locks.httpMs += waits.rowLockTimeMs;
      paid.push(...orders);
      rates.http.push(http.requestsPerSecond);
      httpLatency.p50.push(http.p50);
      httpLatency.p99.push(http.p99);
      progress(
        `round ${round}/${ROUNDS}: raw ${rawRate.toFixed(0)} tx/s, HTTP ${http.requestsPerSecond.toFixed(0)} req/s ` +
          `(p50 ${http.p50} ms, p99 ${http.p99} ms)`,
      );
      await drainOutbox(servicePool);
    }

    // The statements' plans: every one should be a point access on a unique key.
    const one = paid[0];
    const plans = await explainAccess(servicePool, [
      ['SELECT * FROM t_pay_notification WHERE notify_id = ?', ['ntf_x']],
      ['SELECT * FROM t_order WHERE id = ?', [one.id]],
      ['UPDATE t_order SET version = version + 1 WHERE id = ? AND version = ?', [one.id, 2]],
    ]);
    progress(
      `plans: ${plans.join('; ')}; InnoDB row lock waits during the HTTP rounds (server-wide): ` +
        `${locks.http.join(', ')} (${locks.httpMs} ms in all)`,
    );

    // Every callback must have moved its order and written its event exactly once.
    const [check] = await servicePool.query(
      `SELECT (SELECT COUNT(*) FROM t_order WHERE status = 'PAID' AND id IN (?)) AS paid,
              (SELECT COUNT(*) FROM t_outbox WHERE event_type = 'OrderPaid' AND aggregate_id IN (?)) AS events`,
      [paid.map((o) => o.id), paid.map((o) => o.id)],
    );
    const counts = (check as Array<{ paid: number; events: number }>)[0];
    if (Number(counts.paid) !== paid.length || Number(counts.events) !== paid.length) {
      throw new Error(
        `expected ${paid.length} PAID orders and events, got ${JSON.stringify(counts)}`,
      );
    }

    const bare = { nest: [] as number[], express: [] as number[] };
    const ping: LoadRequest = { method: 'GET', path: '/ping' };
    for (const server of [nest, express]) {
      await drive({
        baseUrl: server.url,
        connections: CONNECTIONS,
        durationSeconds: 1,
        next: () => ping,
      });
    }
    for (let round = 1; round <= BARE_ROUNDS; round++) {
      for (const [name, server] of [
        ['nest', nest],
        ['express', express],
      ] as const) {
        const result = await drive({
          baseUrl: server.url,
          connections: CONNECTIONS,
          durationSeconds: BARE_SECONDS,
          next: () => ping,
        });
        bare[name].push(result.requestsPerSecond);
      }
      progress(
        `round ${round}/${BARE_ROUNDS}: bare Nest ${bare.nest.at(-1)!.toFixed(0)} req/s, ` +
          `raw Express ${bare.express.at(-1)!.toFixed(0)} req/s`,
      );
    }

    const rawRate = median(rates.raw);
    const httpRate = median(rates.http);
    const rawSpread = spread(rawLatencies);
    const nestRate = median(bare.nest);
    const expressRate = median(bare.express);
    const rawBaseline = `raw pay-callback transaction (mysql2), ${CONNECTIONS} connections`;
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
      {
        metric: `pay callback latency p50, ${CONNECTIONS} connections (median of rounds)`,
        value: median(httpLatency.p50),
        unit: 'ms',
        baseline: `${rawBaseline}, p50`,
        baselineValue: rawSpread.p50,
        ratio: median(httpLatency.p50) / rawSpread.p50,
        target: 'informational (lower is better)',
        met: true,
      },
      {
        metric: `pay callback latency p99, ${CONNECTIONS} connections (median of rounds)`,
        value: median(httpLatency.p99),
        unit: 'ms',
        baseline: `${rawBaseline}, p99`,
        baselineValue: rawSpread.p99,
        ratio: median(httpLatency.p99) / rawSpread.p99,
        target: 'informational (lower is better)',
        met: true,
      },
      {
        metric: `order-service CPU time per callback during the HTTP rounds (median)`,
        value: median(cpu.service),
        unit: 'ms',
        baseline: 'raw loop CPU time per transaction (mysql2 client)',
        baselineValue: median(cpu.raw),
        ratio: median(cpu.service) / median(cpu.raw),
        target: 'informational (what bounds the callback rate on few cores)',
        met: true,
      },
      {
        metric: `InnoDB row lock waits per HTTP round of ${CALLBACKS} callbacks (server-wide, median)`,
        value: median(locks.http),
        unit: 'waits',
        baseline: 'callbacks per round',
        baselineValue: CALLBACKS,
        ratio: median(locks.http) / CALLBACKS,
        target: 'informational (near 0: the callback is not bound by row locks)',
        met: true,
      },
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
  } finally {
    await Promise.allSettled([nest.stop(), express.stop(), service.stop()]);
    await servicePool.end();
    await raw.close();
    await env.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
