/**
 * npm run bench:e2e: the real stack (four service processes from dist/, MariaDB, the broker)
 * started by scripts/stack/start-stack.ts. First the maximum, after a warm-up burst that is not
 * counted, in alternating rounds: a burst
 * of pay callbacks and the rate at which their payment journals get booked (with every
 * process's CPU and write calls per callback until their coupon journals are booked), then
 * the raw whole-chain baseline (every database statement of as many orders' lives, run by raw
 * mysql2 at the burst's concurrency, with no services and no broker); the figures are medians
 * of the rounds. Then callbacks at a fixed rate of half that maximum (open loop), the time
 * from each callback to its payment journal being booked (p50/p99/max); the peak RSS of each
 * service process is sampled from the first burst to the end of that load. Last, the latency
 * rounds (issue 35): the chain and the minimal chain (bench/e2e/minimal: the same statements
 * with hand-written control flow, no Nest and no services) in alternating rounds at that same
 * rate on the same broker, callback → journal and each stage of both, and their books checked.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { freeLoopbackPort, waitFor } from '@outbox-inbox/test-kit';
import { createConnection, createPool, Pool } from 'mysql2/promise';
import { Accounts } from '../apps/accounting-service/src/ledger/domain/chart-of-accounts';
import { AccountingMigrations } from '../apps/accounting-service/src/migrations';
import { CouponMigrations } from '../apps/coupon-provider/src/migrations';
import { FulfillmentMigrations } from '../apps/fulfillment-service/src/migrations';
import { OrderMigrations } from '../apps/order-service/src/migrations';
import { mapConcurrently } from '../scripts/demo/http-json';
import { SimulatedPayProvider } from '../scripts/demo/pay-provider';
import { Stack, startStack } from '../scripts/stack/start-stack';
import { FetchMeter } from './e2e/consumer-fetches';
import { JournalWatcher } from './e2e/journal-watcher';
import { RawChainRun, runRawChain } from './e2e/raw-chain';
import { createRawChainDatabases, RawChainDatabases } from './e2e/raw-chain-databases';
import { createPayingOrders, PayingOrder } from './e2e/paying-orders';
import { e2eResults } from './e2e/e2e-results';
import { LatencyChain, runLatencyRound } from './e2e/latency-rounds';
import { latencyResults, LatencyRoundPair } from './e2e/latency-results';
import { MinimalChain } from './e2e/minimal/minimal-chain';
import { OwnLoopDelay, ServiceLoopDelay } from './e2e/loop-delay';
import { relayTrace } from './e2e/relay-trace';
import { OtlpCollector } from '../test/e2e/otlp-collector';
import { RssSampler } from './e2e/rss';
import { cpuProfileEnv } from './lib/cpu-profile-env';
import { childPidsNamed, CpuMeter, WriteCallMeter } from './lib/process-cpu';
import { stageTimes } from './e2e/stages';
import { requireBuild } from './lib/order-service-process';
import { progress } from './lib/progress';
import { runAtFixedRate } from './lib/rate-schedule';
import { writeResults } from './lib/results';
import { median, spread } from './lib/stats';

const MAX_ORDERS = Number(process.env.BENCH_E2E_MAX_ORDERS ?? 600);
/** Bursts (each followed by a raw whole-chain run); the burst figures are their medians. */
const BURSTS = Number(process.env.BENCH_E2E_BURSTS ?? 3);
const STEADY_SECONDS = Number(process.env.BENCH_E2E_SECONDS ?? 15);
/** Orders of the raw whole-chain baseline (default: as many as the burst). */
const RAW_ORDERS = Number(process.env.BENCH_E2E_RAW_ORDERS ?? MAX_ORDERS);
/** Callbacks in flight in the burst, and lanes of the raw baseline. */
const IN_FLIGHT = 16;
const LOAD_SHARE = 0.5;
/** The consumers' fetch wait; on the librdkafka mock, each fetch answers only when it is over. */
const FETCH_MAX_WAIT_MS = Number(process.env.BENCH_E2E_FETCH_MAX_WAIT_MS ?? 100);
/** After the steady load, how long the idle consumers' fetches and CPU are counted. */
const IDLE_SECONDS = Number(process.env.BENCH_E2E_IDLE_SECONDS ?? 5);
/** Alternating latency rounds of the chain and the minimal chain, and callbacks per round. */
const LATENCY_ROUNDS = Number(process.env.BENCH_E2E_LATENCY_ROUNDS ?? 5);
const LATENCY_CALLBACKS = Number(process.env.BENCH_E2E_LATENCY_CALLBACKS ?? 1_000);
/**
 * BENCH_E2E_TRACE=1: the services export their spans to a collector in this process, and each
 * latency round of the chain says where its OrderPaid rows waited (bench/e2e/relay-trace.ts).
 * Exporting costs CPU: a traced run's figures are not the untraced ones.
 */
const TRACE = process.env.BENCH_E2E_TRACE === '1';
/** The services whose inbox consumers fetch (their fetch wait is FETCH_MAX_WAIT_MS). */
const CONSUMERS = ['fulfillment-service', 'accounting-service'] as const;
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

/** What one burst measured. */
interface Burst {
  /** Callbacks/s with their payment journals booked. */
  maxRate: number;
  /** Callbacks/s the order-service answered. */
  answeredRate: number;
  cpuPerCallback: Record<string, number>;
  writesPerCallback: Record<string, number>;
  /** Fetch requests of the consumer services (all of them) per callback. */
  fetchesPerCallback: number;
  /** The broker's CPU ms per callback (every node), when it runs on this machine. */
  brokerCpuPerCallback: number;
  machineMsPerCallback: number;
}

const sum = (values: Record<string, number>) => Object.values(values).reduce((a, b) => a + b, 0);

/**
 * Creates MAX_ORDERS orders up to PAYING (not measured), then delivers their callbacks
 * IN_FLIGHT at a time and waits for every payment journal (the maximum rate) and every coupon
 * journal (the end of the chain's work for them, where CPU and write calls are read).
 */
async function runBurst(
  provider: SimulatedPayProvider,
  journals: JournalWatcher,
  accounting: Pool,
  orderDb: Pool,
  orderUrl: string,
  pids: Record<string, number>,
  kafka: KafkaMeters,
  options: { couponJournalsBefore: number },
): Promise<Burst> {
  const burst = await createPayingOrders(orderUrl, MAX_ORDERS);
  // CPU used per callback during the burst, by process: on a small machine, what saturates.
  const cpuMeter = CpuMeter.withBenchAndDatabase(pids);
  const writeMeter = new WriteCallMeter(pids);
  cpuMeter.start();
  writeMeter.start();
  kafka.broker.start();
  await kafka.fetches.start();
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
  // CPU is read once the whole chain is done with the burst: the coupon journals come last.
  await waitForCouponJournals(accounting, options.couponJournalsBefore + burst.length);
  const perCallback = (values: Record<string, number>) =>
    Object.fromEntries(Object.entries(values).map(([name, v]) => [name, v / burst.length]));
  const cpuPerCallback = perCallback(cpuMeter.read());
  const writesPerCallback = perCallback(writeMeter.read());
  const fetchesPerCallback = sum(await kafka.fetches.read()) / burst.length;
  const brokerCpuPerCallback = sum(kafka.broker.read()) / burst.length;
  const cpuWallMs = performance.now() - cpuStarted;
  const stages = await stageTimes(
    orderDb,
    accounting,
    burst.map((o) => o.id),
  );
  progress(
    `burst: all callbacks answered after ${answeredSeconds.toFixed(1)} s, all OrderPaid sent ` +
      `after ${((stages.lastSentMs - burstStartEpoch) / 1000).toFixed(1)} s, all journals booked ` +
      `after ${((stages.lastBookedMs - burstStartEpoch) / 1000).toFixed(1)} s`,
  );
  return {
    maxRate,
    answeredRate: burst.length / answeredSeconds,
    cpuPerCallback,
    writesPerCallback,
    fetchesPerCallback,
    brokerCpuPerCallback,
    machineMsPerCallback: (cpuWallMs / burst.length) * cpus().length,
  };
}

async function main(): Promise<void> {
  requireBuild('order-service', 'fulfillment-service', 'accounting-service', 'coupon-provider');
  const prefix = `bench_e2e_${randomBytes(3).toString('hex')}_`;
  const logs: string[] = [];
  let stack: Stack | undefined;
  let raw: RawChainDatabases | undefined;
  let watcher: JournalWatcher | undefined;
  let minimal: MinimalChain | undefined;
  let collector: OtlpCollector | undefined;
  const latencyWatchers: JournalWatcher[] = [];
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
  const fulfillmentDb = createPool({
    uri: `${MYSQL_URL}/${prefix}fulfillment_service`,
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
    collector = TRACE ? await OtlpCollector.start() : undefined;
    const tracing: Record<string, string> = collector
      ? {
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
          OTEL_BSP_SCHEDULE_DELAY: '200',
          OTEL_BSP_MAX_QUEUE_SIZE: '100000',
          OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2048',
        }
      : {};
    stack = await startStack({
      mysqlUrl: MYSQL_URL,
      databasePrefix: prefix,
      topicPrefix: prefix.replace(/_/g, '.'),
      ports: {
        'order-service': await freeLoopbackPort(),
        'fulfillment-service': await freeLoopbackPort(),
        'accounting-service': await freeLoopbackPort(),
        'coupon-provider': await freeLoopbackPort(),
      },
      // The librdkafka mock answers a fetch only when its wait is over, data or not (a broker
      // answers at once): a 100 ms wait (BENCH_E2E_FETCH_MAX_WAIT_MS), as a latency-minded
      // deployment would choose anyway. On the mock, every consumer hop waits 0 to that long.
      // BENCH_CPU_PROF=<dir>: every service writes its V8 CPU profile there when it stops.
      env: {
        'order-service': { ...cpuProfileEnv(), ...tracing },
        'coupon-provider': { ...cpuProfileEnv(), ...tracing },
        'fulfillment-service': {
          KAFKA_FETCH_MAX_WAIT_MS: String(FETCH_MAX_WAIT_MS),
          ...cpuProfileEnv(),
          ...tracing,
        },
        'accounting-service': {
          KAFKA_FETCH_MAX_WAIT_MS: String(FETCH_MAX_WAIT_MS),
          ...cpuProfileEnv(),
          ...tracing,
        },
      },
      log: (line) => logs.push(line),
    });
    const pids = Object.fromEntries(
      Object.entries(stack.services).map(([name, service]) => [name, service.pid!]),
    );
    progress(`stack up: ${JSON.stringify(pids)}`);
    const orderUrl = stack.services['order-service'].url;
    const provider = new SimulatedPayProvider(orderUrl, stack.payCallbackSecret);
    const kafkaMeters: KafkaMeters = {
      fetches: new FetchMeter(
        Object.fromEntries(CONSUMERS.map((name) => [name, stack!.services[name].url])),
        stack.opsApiToken,
      ),
      // Not in "all processes" (issue 22's CPU per order): the broker's cost is shown apart.
      broker: new CpuMeter(brokerPids(stack)),
    };
    progress(`broker processes: ${JSON.stringify(kafkaMeters.broker.pids)}`);
    const journals = new JournalWatcher(accounting);
    watcher = journals;
    journals.start();

    // The maximum: bursts of IN_FLIGHT callbacks in flight, each until its last payment journal
    // is booked, each followed by a run of the raw whole-chain baseline (alternating rounds).
    // Peak RSS from the first burst's orders to the end of the steady load: a heap grown in a
    // burst counts.
    const rss = new RssSampler(pids);
    rss.start();
    // A first burst warms the services up (V8 still optimizes their code in it: in runs on
    // 12-05 it cost 20-40 % more CPU per callback than the third); it is not counted.
    const warmUp = await runBurst(
      provider,
      journals,
      accounting,
      orderDb,
      orderUrl,
      pids,
      kafkaMeters,
      {
        couponJournalsBefore: 0,
      },
    );
    progress(`warm-up burst: ${describeBurst(warmUp)}`);
    const bursts: Burst[] = [];
    const rawChains: RawChainRun[] = [];
    for (let round = 1; round <= BURSTS; round++) {
      const burst = await runBurst(
        provider,
        journals,
        accounting,
        orderDb,
        orderUrl,
        pids,
        kafkaMeters,
        { couponJournalsBefore: round * MAX_ORDERS },
      );
      bursts.push(burst);
      progress(`burst ${round}/${BURSTS}: ${describeBurst(burst)}`);
      // The raw whole-chain baseline, while the stack stands idle.
      const rawChain = await runRawChain(raw.pools, RAW_ORDERS, IN_FLIGHT, LEDGER_ACCOUNTS);
      rawChains.push(rawChain);
      progress(`raw ${round}/${BURSTS}: ${describeRawChain(rawChain)}`);
    }
    await raw.close();
    raw = undefined;
    const maxRate = median(bursts.map((b) => b.maxRate));
    const rate = LOAD_SHARE * maxRate;
    const medianOf = (pick: (b: Burst) => Record<string, number>) =>
      Object.fromEntries(
        Object.keys(pick(bursts[0])).map((name) => [
          name,
          median(bursts.map((b) => pick(b)[name])),
        ]),
      );
    progress(
      `maximum ${maxRate.toFixed(0)} callbacks/s booked end to end (median of ${BURSTS} bursts); steady at ${rate.toFixed(0)}/s`,
    );

    // The steady load: open loop at half the maximum.
    const count = Math.max(1, Math.round(rate * STEADY_SECONDS));
    const steady = await createPayingOrders(orderUrl, count);
    progress(
      `${steady.length} orders PAYING; ${STEADY_SECONDS} s of callbacks at ${rate.toFixed(0)}/s…`,
    );
    let lateMs = 0;
    // What the steady load costs per order, every process, until its coupon journals are booked.
    const steadyCpu = CpuMeter.withBenchAndDatabase(pids);
    steadyCpu.start();
    kafkaMeters.broker.start();
    await kafkaMeters.fetches.start();
    const sentAt = await deliverAll(provider, steady, async (send) => {
      lateMs = (await runAtFixedRate(steady.length, rate, send)).lateMs;
    });
    await journals.waitForAll(
      steady.map((o) => o.id),
      120_000,
    );
    await waitForCouponJournals(accounting, (BURSTS + 1) * MAX_ORDERS + steady.length);
    const steadyCpuMs = steadyCpu.read();
    const steadyFetches = sum(await kafkaMeters.fetches.read());
    const steadyBrokerCpuMs = sum(kafkaMeters.broker.read());
    rss.stop();
    await journals.stop();
    const idle = await idleCost(pids, kafkaMeters);
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
    const consumerCpu = (cpu: Record<string, number>) => sum(pick(cpu, CONSUMERS));
    const fetchCost = {
      fetchMaxWaitMs: FETCH_MAX_WAIT_MS,
      brokers: stack.kafkaBrokers.length,
      consumers: CONSUMERS.length,
      burstFetchesPerCallback: median(bursts.map((b) => b.fetchesPerCallback)),
      steadyFetchesPerCallback: steadyFetches / steady.length,
      steadyCpuPerCallback: sum(steadyCpuMs) / steady.length,
      burstConsumerCpuPerCallback: median(bursts.map((b) => consumerCpu(b.cpuPerCallback))),
      steadyConsumerCpuPerCallback: consumerCpu(steadyCpuMs) / steady.length,
      idleSeconds: IDLE_SECONDS,
      idleFetchesPerSecond: idle.fetches / IDLE_SECONDS,
      idleConsumerCpuMsPerSecond: sum(idle.cpuMs) / IDLE_SECONDS,
      ...(Object.keys(kafkaMeters.broker.pids).length > 0 && {
        broker: {
          processes: Object.keys(kafkaMeters.broker.pids).length,
          burstCpuPerCallback: median(bursts.map((b) => b.brokerCpuPerCallback)),
          steadyCpuPerCallback: steadyBrokerCpuMs / steady.length,
          idleCpuMsPerSecond: idle.brokerCpuMs / IDLE_SECONDS,
        },
      }),
    };
    progress(`fetch wait ${FETCH_MAX_WAIT_MS} ms: ${JSON.stringify(fetchCost)}`);
    progress(
      `callback to journal booked: p50 ${booked.p50.toFixed(1)} ms, p99 ${booked.p99.toFixed(1)} ms, ` +
        `max ${booked.max.toFixed(1)} ms (sends up to ${lateMs.toFixed(1)} ms late); ` +
        `peak RSS ${JSON.stringify(Object.fromEntries(Object.entries(rss.peakMb).map(([k, v]) => [k, Math.round(v)])))} MB`,
    );

    // The latency rounds: the chain and the minimal chain, alternating, at the steady rate.
    minimal = await MinimalChain.start({
      mysqlUrl: MYSQL_URL,
      prefix: `${prefix}min_`,
      kafka: stack.kafka,
      fetchMaxWaitMs: FETCH_MAX_WAIT_MS,
      migrations: RAW_CHAIN_MIGRATIONS,
      accounts: LEDGER_ACCOUNTS,
    });
    const chains = latencyChains(
      {
        provider,
        orderUrl,
        orderDb,
        fulfillmentDb,
        accounting,
        loopDelay: new ServiceLoopDelay(
          Object.fromEntries(
            Object.entries(stack.services).map(([name, service]) => [name, service.url]),
          ),
          stack.opsApiToken,
        ),
        collector,
      },
      minimal,
      latencyWatchers,
    );
    const pairs: LatencyRoundPair[] = [];
    for (let round = 1; round <= LATENCY_ROUNDS; round++) {
      // Each chain goes first in every other round: neither always runs after the other's writes.
      const order =
        round % 2 === 1 ? (['chain', 'minimal'] as const) : (['minimal', 'chain'] as const);
      const pair: Partial<LatencyRoundPair> = {};
      for (const name of order) {
        pair[name] = await runLatencyRound(chains[name], LATENCY_CALLBACKS, rate);
      }
      pairs.push(pair as LatencyRoundPair);
      progress(
        `latency round ${round}/${LATENCY_ROUNDS}: ${describeLatencyRound(pair as LatencyRoundPair)}`,
      );
    }

    const results = e2eResults({
      maxRate,
      burstSize: MAX_ORDERS,
      rounds: BURSTS,
      answeredRate: median(bursts.map((b) => b.answeredRate)),
      cpuPerCallback: medianOf((b) => b.cpuPerCallback),
      chainCpuPerCallback: bursts.map((b) => sum(b.cpuPerCallback)),
      warmUpCpuPerCallback: sum(warmUp.cpuPerCallback),
      writesPerCallback: medianOf((b) => b.writesPerCallback),
      rawChains,
      machineMsPerCallback: median(bursts.map((b) => b.machineMsPerCallback)),
      cpuCount: cpus().length,
      stages,
      booked,
      load: `${rate.toFixed(0)} callbacks/s (${LOAD_SHARE * 100}% of max) for ${STEADY_SECONDS} s, polled every 10 ms, consumers' fetch wait ${FETCH_MAX_WAIT_MS} ms`,
      rssPeakMb: rss.peakMb,
      fetchCost,
    });
    writeResults('e2e', [...results, ...latencyResults(pairs, `${rate.toFixed(0)} callbacks/s`)]);
  } catch (error) {
    process.stderr.write(`${logs.slice(-40).join('\n')}\n`);
    throw error;
  } finally {
    // Its polling loop stops before its pool closes, so a failure above is the one reported.
    await watcher?.stop().catch(() => undefined);
    for (const latencyWatcher of latencyWatchers)
      await latencyWatcher.stop().catch(() => undefined);
    await minimal?.stop();
    await accounting.end();
    await orderDb.end();
    await fulfillmentDb.end();
    await collector?.stop();
    await stack?.stop();
    await raw?.close();
    const admin = await createConnection({ uri: MYSQL_URL });
    for (const db of DATABASES) await admin.query(`DROP DATABASE IF EXISTS \`${prefix}${db}\``);
    await admin.end();
  }
}

/**
 * The consumer services' fetch requests and CPU over IDLE_SECONDS with no traffic: what their
 * fetch wait costs when nothing arrives (each fetch then waits its whole time, on any broker).
 */
async function idleCost(
  pids: Record<string, number>,
  kafka: KafkaMeters,
): Promise<{ fetches: number; cpuMs: Record<string, number>; brokerCpuMs: number }> {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const cpu = new CpuMeter(pick(pids, CONSUMERS));
  cpu.start();
  kafka.broker.start();
  await kafka.fetches.start();
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1_000));
  const cpuMs = cpu.read();
  const brokerCpuMs = sum(kafka.broker.read());
  return { fetches: sum(await kafka.fetches.read()), cpuMs, brokerCpuMs };
}

/** The consumers' fetch requests and the broker's CPU. */
interface KafkaMeters {
  fetches: FetchMeter;
  broker: CpuMeter;
}

/**
 * The broker's processes, when this machine runs them: the nodes of an Apache Kafka cluster
 * (its state file), or the mock the stack spawned (a child of this process); none for a
 * cluster elsewhere.
 */
function brokerPids(stack: Stack): Record<string, number> {
  const cluster = stack.kafka.cluster;
  if (cluster) {
    return Object.fromEntries(
      cluster.state.nodes
        .filter((node) => node.pid !== null)
        .map((node) => [`kafka-node-${node.id}`, node.pid!]),
    );
  }
  if (stack.kafka.mock) {
    return Object.fromEntries(
      childPidsNamed(process.pid, 'kafka-mock').map((pid, i) => [`kafka-mock-${i + 1}`, pid]),
    );
  }
  return {};
}

function pick<T>(values: Record<string, T>, names: readonly string[]): Record<string, T> {
  return Object.fromEntries(Object.entries(values).filter(([name]) => names.includes(name)));
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

function describeBurst(burst: Burst): string {
  const list = (values: Record<string, number>, digits: number) =>
    Object.entries(values)
      .map(([name, value]) => `${name} ${value.toFixed(digits)}`)
      .join(', ');
  return (
    `maximum ${burst.maxRate.toFixed(0)} callbacks/s booked end to end; CPU ms per callback: ` +
    `${list(burst.cpuPerCallback, 2)} (all ${sum(burst.cpuPerCallback).toFixed(2)}); ` +
    `write syscalls per callback: ${list(burst.writesPerCallback, 1)}`
  );
}

/**
 * The two chains of the latency rounds, each with a started journal watcher (put in `watchers`
 * so that they are stopped): the real one through the order-service's API and the simulated
 * pay provider, the minimal one in this process.
 */
function latencyChains(
  real: {
    provider: SimulatedPayProvider;
    orderUrl: string;
    orderDb: Pool;
    fulfillmentDb: Pool;
    accounting: Pool;
    loopDelay: ServiceLoopDelay;
    collector?: OtlpCollector;
  },
  minimal: MinimalChain,
  watchers: JournalWatcher[],
): Record<'chain' | 'minimal', LatencyChain> {
  const watch = (db: Pool) => {
    const journals = new JournalWatcher(db);
    watchers.push(journals);
    journals.start();
    return journals;
  };
  return {
    chain: {
      name: 'chain',
      orderDb: real.orderDb,
      accountingDb: real.accounting,
      consumerDbs: [real.fulfillmentDb, real.accounting],
      journals: watch(real.accounting),
      loopDelay: real.loopDelay,
      trace: real.collector && ((ids) => relayTrace(real.collector!.spans, ids)),
      prepare: async (count) => {
        const orders = await createPayingOrders(real.orderUrl, count);
        const notifications = orders.map((o) => real.provider.notification(o));
        return {
          ids: orders.map((o) => o.id),
          callback: async (i) => {
            const status = await real.provider.deliver(notifications[i]);
            if (status !== 200)
              throw new Error(`callback for order ${orders[i].id} answered ${status}`);
          },
        };
      },
    },
    minimal: {
      name: 'minimal chain',
      orderDb: minimal.orderDb,
      accountingDb: minimal.accountingDb,
      consumerDbs: [minimal.fulfillmentDb, minimal.accountingDb],
      journals: watch(minimal.accountingDb),
      loopDelay: new OwnLoopDelay('bench (minimal chain)'),
      prepare: async (count) => {
        const orders = await minimal.prepare(count);
        return { ids: orders.map((o) => o.id), callback: (i) => minimal.callback(orders[i]) };
      },
    },
  };
}

function describeLatencyRound(pair: LatencyRoundPair): string {
  const delays = (r: LatencyRoundPair['chain']) =>
    Object.entries(r.loopDelay)
      .map(
        ([name, d]) =>
          `${name} ${d.p50.toFixed(0)}/${d.p99.toFixed(0)}/${d.max.toFixed(0)}` +
          (d.claims ? ` (${d.claims.count} claims, mean ${d.claims.meanMs.toFixed(1)} ms)` : ''),
      )
      .join(', ');
  const trace = pair.chain.trace;
  const traced = trace
    ? `; chain's OrderPaid, p50/p99 ms: callback ${pct(trace.callback)}, to send ${pct(trace.toSend)} ` +
      `(behind the batch on the wire ${pct(trace.behindBatchOnWire)}, after it ${pct(trace.afterBatchOnWire)}), ` +
      `send ${pct(trace.send)}, delivery ${pct(trace.delivery)}, booking ${pct(trace.booking)}; ` +
      `batches of ${pct(trace.batchSize)} messages, gaps ${pct(trace.batchGap)} ms`
    : '';
  const one = (name: string, r: LatencyRoundPair['chain']) =>
    `${name} p50 ${r.booked.p50.toFixed(1)} / p99 ${r.booked.p99.toFixed(1)} ms ` +
    `(row → SENT p50 ${r.stages.relay.p50} / p99 ${r.stages.relay.p99} ms, ` +
    `SENT → journal p50 ${r.stages.consume.p50} / p99 ${r.stages.consume.p99} ms, ` +
    `sends up to ${r.lateMs.toFixed(0)} ms late)`;
  return (
    `${one('chain', pair.chain)}; ${one('minimal', pair.minimal)}; ` +
    `p99 ratio ${(pair.chain.booked.p99 / pair.minimal.booked.p99).toFixed(2)}; ` +
    `event-loop delay p50/p99/max ms: ${delays(pair.chain)}; ${delays(pair.minimal)}${traced}`
  );
}

function pct(s: { p50: number; p99: number }): string {
  return `${s.p50.toFixed(1)}/${s.p99.toFixed(1)}`;
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
