import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as pace } from 'node:timers/promises';
import { checkInvariants } from '@app/trading-checker';
import {
  ApacheKafkaCluster,
  clusterClientEnv,
  clusterClientSecurity,
  ClusterSecurity,
  KAFKA_STARTUP_MS,
  waitFor,
} from '@outbox-inbox/test-kit';
import { Kafka, logLevel } from 'kafkajs';
import { ServiceName, TradingStack } from '../support/trading-stack';

/**
 * Issue 36, item 6: a SCRAM password changed on the cluster while orders are being paid. The
 * new password is written into the service's password file (KAFKA_SASL_PASSWORD_FILE), then
 * set on the cluster, where the old one is gone; the brokers' re-authentication deadline
 * (connections.max.reauth.ms, KIP-368) makes every logged-in client log in again, reading the
 * file anew. Nothing is restarted, nothing is lost, and neither password reaches a log line.
 * Rotated: the order-service (its relay produces) and the accounting-service (it consumes and
 * produces dead letters). One secured node.
 */
const KAFKA_PRINCIPALS: ServiceName[] = [
  'order-service',
  'fulfillment-service',
  'accounting-service',
];
const ROTATED: ServiceName[] = ['order-service', 'accounting-service'];
/**
 * The brokers' session lifetime: kafkajs logs in again 10 s before it ends, so every client
 * re-authenticates within about 5 s of each login, and no session outlives 15 s.
 */
const REAUTH_MS = 15_000;
/** Orders paid in each round of the traffic, and the pace of the rounds. */
const ORDERS_PER_ROUND = 2;
const ROUND_PACE_MS = 300;
/** A liveness bound for the whole rotation on two busy cores, not a performance figure. */
const ROTATION_TEST_MS = 600_000;
const FIGURES = join('test-logs', 'scram-rotation.figures.log');

let cluster: ApacheKafkaCluster;
let chain: TradingStack;
let secretsDir: string;
const passwordFiles: Partial<Record<ServiceName, string>> = {};

/**
 * Writes a password file as Kubernetes updates a mounted secret: the whole new file renamed
 * over the old one, so no reader sees it half written.
 */
function writePasswordFile(file: string, password: string): void {
  writeFileSync(`${file}.new`, `${password}\n`, { mode: 0o600 });
  renameSync(`${file}.new`, file);
}

/** A service's settings to connect as `user`, its password in a file. */
function connectAs(security: ClusterSecurity, user: ServiceName): Record<string, string> {
  const { KAFKA_SASL_PASSWORD: password, ...env } = clusterClientEnv(security, user);
  const file = join(secretsDir, `${user}.kafka-password`);
  writePasswordFile(file, password);
  passwordFiles[user] = file;
  return { ...env, KAFKA_SASL_PASSWORD_FILE: file };
}

/** Whether the cluster lets `user` log in with `password` (a kafkajs admin's connect). */
async function logsIn(security: ClusterSecurity, user: string, password: string) {
  const admin = new Kafka({
    clientId: 'scram-rotation-probe',
    brokers: cluster.brokers,
    ...clusterClientSecurity(security, user, password),
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
  }).admin();
  try {
    await admin.connect();
    return true;
  } catch (error) {
    if ((error as Error).name === 'KafkaJSSASLAuthenticationError') return false;
    throw error;
  } finally {
    await admin.disconnect();
  }
}

beforeAll(async () => {
  secretsDir = mkdtempSync(join(tmpdir(), 'scram-rotation-secrets-'));
  mkdirSync('test-logs', { recursive: true });
  cluster = await ApacheKafkaCluster.start({
    nodes: 1,
    dir: mkdtempSync(join(tmpdir(), 'scram-rotation-kafka-')),
    secure: true,
    reauthMs: REAUTH_MS,
  });
  const prefix = `t${randomBytes(3).toString('hex')}_`;
  await cluster.applyAccess(prefix.replace(/_/g, '.'));
  const security = cluster.security!;
  const env: Partial<Record<ServiceName, Record<string, string>>> = {};
  for (const name of KAFKA_PRINCIPALS)
    env[name] = { ...connectAs(security, name), LOG_LEVEL: 'verbose' };
  chain = await TradingStack.start({
    prefix,
    env,
    kafkaBrokers: cluster.brokers,
    kafkaTopicsReady: true,
    startTimeoutMs: 180_000,
  });
  // A cluster and four services on two cores shared with other runs: twice the usual bound.
}, 2 * KAFKA_STARTUP_MS);

afterAll(async () => {
  await chain?.stop();
  await cluster?.stop();
  if (secretsDir) rmSync(secretsDir, { recursive: true, force: true });
});

function bookedCount(): Promise<number> {
  return chain.count(
    'accounting_service',
    "SELECT COUNT(*) AS n FROM t_journal WHERE kind = 'COUPON_GRANT'",
  );
}

/** Pays ORDERS_PER_ROUND new orders a round until `stop()`; `paid` counts the acknowledged. */
function payContinuously() {
  let running = true;
  let paid = 0;
  const done = (async () => {
    while (running) {
      const orders = await chain.openOrders(ORDERS_PER_ROUND);
      const statuses = await chain.pay(orders);
      if (statuses.some((s) => s !== 200)) throw new Error(`pay callbacks answered ${statuses}`);
      paid += orders.length;
      // The traffic's rate, not a wait for anything.
      await pace(ROUND_PACE_MS);
    }
  })();
  return {
    get paid() {
      return paid;
    },
    stop: async () => {
      running = false;
      await done;
      return paid;
    },
  };
}

/**
 * Samples the booked orders against the paid ones until `stop()`: the longest stretch in which
 * orders were waiting and none was booked is how long the rotation paused the traffic.
 */
function watchFlow(paidSoFar: () => number) {
  let running = true;
  let longestPauseMs = 0;
  const done = (async () => {
    let lastProgress = Date.now();
    let lastBooked = await bookedCount();
    while (running) {
      const booked = await bookedCount();
      const now = Date.now();
      if (booked > lastBooked || booked >= paidSoFar()) lastProgress = now;
      longestPauseMs = Math.max(longestPauseMs, now - lastProgress);
      lastBooked = booked;
      await pace(100);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
      return longestPauseMs;
    },
  };
}

describe('a SCRAM password rotated while orders are paid', () => {
  it(
    'keeps the chain flowing on the new passwords read from the files: no restart, nothing lost, the old passwords refused',
    async () => {
      const security = cluster.security!;
      const pids = Object.fromEntries(
        KAFKA_PRINCIPALS.map((name) => [name, chain.stack.services[name].pid]),
      );
      const old = Object.fromEntries(ROTATED.map((name) => [name, security.users[name]]));
      const next = Object.fromEntries(
        ROTATED.map((name) => [name, `rotated-${randomBytes(18).toString('hex')}`]),
      );

      const traffic = payContinuously();
      const flow = watchFlow(() => traffic.paid);
      // The chain flows before anything changes.
      await waitFor(async () => (await bookedCount()) >= 2 * ORDERS_PER_ROUND, {
        timeoutMs: 120_000,
        description: 'the first orders booked',
      });

      // The runbook's order: the file first, then the cluster, where the old one is gone.
      // Both users at once: between the file and the cluster, a login is refused (the runbook's
      // window), and the kit's tool is a JVM that takes long to start on a loaded machine.
      const startedAt = Date.now();
      for (const name of ROTATED) writePasswordFile(passwordFiles[name]!, next[name]);
      await Promise.all(ROTATED.map((name) => cluster.setScramPassword(name, next[name])));
      const rotatedAt = Date.now();
      const paidAtRotation = traffic.paid;
      for (const name of ROTATED) {
        expect(await logsIn(security, name, old[name])).toBe(false);
        expect(await logsIn(security, name, next[name])).toBe(true);
      }
      // How long after the cluster's change every order paid until then is booked: the
      // backlog of the refused window caught up.
      await waitFor(async () => (await bookedCount()) >= paidAtRotation, {
        timeoutMs: 4 * REAUTH_MS + 300_000,
        intervalMs: 100,
        description: 'the orders paid before the rotation booked',
      });
      const caughtUpMs = Date.now() - rotatedAt;

      // Past two session lifetimes, every connection opened before the change has logged in
      // again (the broker closes one that does not); orders paid now travel on the new ones.
      await waitFor(async () => Date.now() - rotatedAt > 2 * REAUTH_MS, {
        timeoutMs: 4 * REAUTH_MS,
        intervalMs: 500,
        description: 'two session lifetimes past the rotation',
      });
      const paidBeforeLastRound = traffic.paid;
      await waitFor(async () => traffic.paid >= paidBeforeLastRound + 2 * ORDERS_PER_ROUND, {
        timeoutMs: 120_000,
        description: 'more orders paid after the sessions ended',
      });
      const paid = await traffic.stop();
      await chain.settled(paid, 300_000);
      const longestPauseMs = await flow.stop();

      const report = await checkInvariants(
        { ...chain.targets(), kafkaSecurity: cluster.clientSecurity('trading-ops') },
        { quiescent: true },
      );
      expect(report.violations).toEqual([]);
      // No service was restarted: the same processes, still running.
      for (const name of KAFKA_PRINCIPALS) {
        expect(chain.stack.services[name].pid).toBe(pids[name]);
        expect(chain.stack.services[name].running).toBe(true);
      }
      // Nor did a consumer fall behind its group for good: the booked orders are the paid ones.
      expect(await bookedCount()).toBe(paid);
      appendFileSync(
        FIGURES,
        `${new Date().toISOString()} rotated ${ROTATED.join(', ')} in ${rotatedAt - startedAt} ms ` +
          `(reauth ${REAUTH_MS} ms); backlog booked ${caughtUpMs} ms after it; ${paid} ` +
          `orders paid; longest stretch with orders waiting and none booked: ${longestPauseMs} ms\n`,
      );

      const secrets = [...Object.values(old), ...Object.values(next)];
      expect(chain.logs.length).toBeGreaterThan(100);
      expect(chain.logs.filter((line) => secrets.some((s) => line.includes(s)))).toEqual([]);
    },
    ROTATION_TEST_MS,
  );
});
