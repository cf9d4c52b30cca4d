/**
 * npm run bench:checker: the invariant checker on deployments of 100,000 and 1,000,000 paid
 * orders written straight into the tables (history, fulfillment, coupon, two journals and
 * four lines, gates of both consumers), of which retention kept the last 10,000 (their inbox
 * and outbox rows, their 40,000 messages in the topics). The checker runs in its own process;
 * reported: its time and its peak RSS (target: under 300 MB at 1,000,000 orders), and that it
 * found the deployment clean.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { invariantTargets } from '@app/trading-checker';
import { AccountingMigrations } from '../apps/accounting-service/src/migrations';
import { CouponMigrations } from '../apps/coupon-provider/src/migrations';
import { FulfillmentMigrations } from '../apps/fulfillment-service/src/migrations';
import { OrderMigrations } from '../apps/order-service/src/migrations';
import { startTestEnvironment } from '@outbox-inbox/test-kit';
import { seedDeployment } from '@app/trading-test-kit';
import { createConnection } from 'mysql2/promise';
import { progress } from './lib/progress';
import { BenchResult, writeResults } from './lib/results';

const SIZES = [100_000, 1_000_000];
const RECENT = 10_000;
const MIGRATIONS = {
  order: OrderMigrations,
  fulfillment: FulfillmentMigrations,
  accounting: AccountingMigrations,
  couponProvider: CouponMigrations,
};
const RSS_TARGET_MB = 300;
/** As `npm run check:invariants` runs it (package.json). */
const CHECKER_NODE_FLAGS = ['--max-semi-space-size=4', '--max-old-space-size=128'];

interface CheckerRun {
  seconds: number;
  peakRssMb: number;
  orders: number;
  topicMessages: number;
  violations: string[];
}

async function main(): Promise<void> {
  const env = await startTestEnvironment();
  const results: BenchResult[] = [];
  const runs: CheckerRun[] = [];
  try {
    for (const size of SIZES) {
      const prefix = `bench_chk_${randomBytes(3).toString('hex')}_`;
      const topicPrefix = prefix.replace(/_/g, '.');
      const targets = invariantTargets({
        mysqlUrl: env.infra.mysqlUrl,
        kafkaBrokers: env.infra.kafkaBrokers,
        databasePrefix: prefix,
        topicPrefix,
      });
      await env.infra.kafka.createTopics({
        [targets.topics.order]: 4,
        [targets.topics.fulfillment]: 4,
      });
      try {
        progress(`checker: seeding ${size.toLocaleString('en')} orders`);
        const seeding = Date.now();
        await seedDeployment(targets, env.kafka, MIGRATIONS, size, RECENT);
        progress(`checker: seeded in ${((Date.now() - seeding) / 1000).toFixed(0)} s; checking`);
        const run = await runChecker(
          env.infra.mysqlUrl,
          env.infra.kafkaBrokers,
          prefix,
          topicPrefix,
        );
        progress(`checker: ${JSON.stringify(run)}`);
        if (run.orders !== size || run.violations.length > 0)
          throw new Error(`the checker did not find ${size} orders clean: ${JSON.stringify(run)}`);
        runs.push(run);
      } finally {
        const root = await createConnection({ uri: env.infra.mysqlUrl });
        for (const database of Object.values(targets.databases))
          await root.query(`DROP DATABASE IF EXISTS \`${database}\``);
        await root.end();
      }
    }
  } finally {
    await env.stop();
  }
  const [small, large] = runs;
  for (const [size, run] of SIZES.map((s, i) => [s, runs[i]] as const)) {
    const label = `${size.toLocaleString('en')} orders`;
    results.push({
      metric: `check ${label}: time`,
      value: run.seconds,
      unit: 's',
      baseline: 'orders checked per second',
      baselineValue: size / run.seconds,
      ratio: 1,
      target: 'reported',
      met: true,
    });
    results.push({
      metric: `check ${label}: peak RSS`,
      value: run.peakRssMb,
      unit: 'MB',
      baseline: 'target',
      baselineValue: RSS_TARGET_MB,
      ratio: run.peakRssMb / RSS_TARGET_MB,
      target: `< ${RSS_TARGET_MB} MB`,
      met: run.peakRssMb < RSS_TARGET_MB,
    });
  }
  results.push({
    metric: 'time per order, 1,000,000 against 100,000',
    value: large.seconds / SIZES[1],
    unit: 's/order',
    baseline: '100,000 orders',
    baselineValue: small.seconds / SIZES[0],
    ratio: large.seconds / SIZES[1] / (small.seconds / SIZES[0]),
    target: '<= 1.5x (linear)',
    met: large.seconds / SIZES[1] <= 1.5 * (small.seconds / SIZES[0]),
  });
  writeResults('checker', results);
}

async function runChecker(
  mysqlUrl: string,
  brokers: string[],
  prefix: string,
  topicPrefix: string,
): Promise<CheckerRun> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      ...CHECKER_NODE_FLAGS,
      '-r',
      '@swc-node/register',
      join(__dirname, 'checker', 'run-checker.ts'),
    ],
    {
      env: {
        ...process.env,
        MYSQL_URL: mysqlUrl,
        KAFKA_BROKERS: brokers.join(','),
        DATABASE_PREFIX: prefix,
        TOPIC_PREFIX: topicPrefix,
      },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as CheckerRun;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
