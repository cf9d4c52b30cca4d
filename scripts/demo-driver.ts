/**
 * `npm run demo:driver [-- --judge RUN]`: the demo against services that already run (docker
 * compose, or `npm run stack` in another terminal), counting only this run's orders. With
 * `--judge RUN` it runs no traffic and judges an earlier run as it stands now.
 * Settings come from the environment; the last line is the verdict, and the exit code matches.
 */
import { parseArgs } from 'node:util';
import { DemoSettings, newRunId } from './demo/demo-settings';
import { judgeExistingRun, runDemo } from './demo/driver';
import { formatSummary } from './demo/summary';
import { DemoCheck, verdictLine } from './demo/verdict';

const env = (name: string, fallback: string) => process.env[name] || fallback;

function settingsFromEnv(): DemoSettings {
  return {
    urls: {
      order: env('ORDER_SERVICE_URL', 'http://127.0.0.1:3000'),
      fulfillment: env('FULFILLMENT_SERVICE_URL', 'http://127.0.0.1:3001'),
      accounting: env('ACCOUNTING_SERVICE_URL', 'http://127.0.0.1:3002'),
      coupon: env('COUPON_PROVIDER_URL', 'http://127.0.0.1:3003'),
    },
    payCallbackSecret: env('PAY_CALLBACK_SECRET', 'local-demo-secret-0123456789'),
    mysqlUrl: env('MYSQL_URL', 'mysql://root@127.0.0.1:3306').replace(/\/+$/, ''),
    kafkaBrokers: env('KAFKA_BROKERS', '127.0.0.1:9092').split(',').filter(Boolean),
    databasePrefix: process.env.DATABASE_PREFIX ?? '',
    topicPrefix: process.env.TOPIC_PREFIX ?? 'trading.',
    opsToken: process.env.OPS_API_TOKEN || undefined,
  };
}

function report(checks: DemoCheck[], orders: number): boolean {
  for (const c of checks.filter((x) => x.what))
    process.stdout.write(`  failed ${c.check}: ${c.what}\n`);
  const line = verdictLine(checks, orders);
  process.stdout.write(`${line}\n`);
  return line.startsWith('demo: PASS');
}

async function main(): Promise<boolean> {
  const { values: flags } = parseArgs({ options: { judge: { type: 'string' } } });
  const settings = settingsFromEnv();
  if (flags.judge) {
    const { checks, orders } = await judgeExistingRun(settings, flags.judge);
    return report(checks, orders);
  }
  const orders = Number(env('DEMO_ORDERS', '50'));
  const runId = newRunId();
  process.stdout.write(`demo run ${runId} against ${settings.urls.order}\n`);
  const outcome = await runDemo(settings, {
    runId,
    orders,
    progress: (line) => process.stdout.write(`${line}\n`),
  });
  const publicOrderUrl = env('DEMO_PUBLIC_ORDER_URL', settings.urls.order);
  process.stdout.write(
    `${formatSummary(outcome, `${publicOrderUrl}/ops?order=${outcome.state.orders[0].id}`)}\n`,
  );
  return report(outcome.checks, orders);
}

main()
  .then((ok) => process.exit(ok ? 0 : 1))
  .catch((error: Error) => {
    process.stdout.write(`${error.stack ?? error.message}\n`);
    process.stdout.write(`demo: FAIL run: ${error.message.split('\n')[0]}\n`);
    process.exit(1);
  });
