/**
 * `npm run demo:driver [-- --judge RUN] [-- --dead-letter-drill]`: the demo against services
 * that already run (docker compose, or `npm run stack` in another terminal), counting only this
 * run's orders. With `--judge RUN` it runs no traffic and judges an earlier run as it stands
 * now. `--dead-letter-drill` stages a dead letter and replays it, as `npm run demo` does: it
 * opens a currency in the accounting database, so MYSQL_URL must be allowed to write there
 * (docker compose's checker user is read-only, so compose's demo leaves it out).
 * Settings come from the environment; the last line is the verdict, and the exit code matches.
 */
import { parseArgs } from 'node:util';
import { kafkaSecurityFromEnv, readSecretFiles, withDatabasePassword } from '@app/config';
import { DemoSettings, newRunId } from './demo/demo-settings';
import { judgeExistingRun, runDemo } from './demo/driver';
import { formatSummary } from './demo/summary';
import { RunState } from './demo/run-state';
import { DemoCheck, verdictLine } from './demo/verdict';

const env = (name: string, fallback: string) => process.env[name] || fallback;

function settingsFromEnv(): DemoSettings {
  // The secrets may come from files too (PAY_CALLBACK_SECRET_FILE, OPS_API_TOKEN_FILE), and
  // MYSQL_URL's password from DATABASE_PASSWORD(_FILE), as a service's DATABASE_URL's does.
  const secrets = readSecretFiles(process.env, [
    'PAY_CALLBACK_SECRET',
    'OPS_API_TOKEN',
    'DATABASE_PASSWORD',
  ]) as Record<string, string | undefined>;
  const mysqlUrl = withDatabasePassword({
    DATABASE_URL: env('MYSQL_URL', 'mysql://root@127.0.0.1:3306'),
    DATABASE_PASSWORD: secrets.DATABASE_PASSWORD,
  }).DATABASE_URL as string;
  return {
    urls: {
      order: env('ORDER_SERVICE_URL', 'http://127.0.0.1:3000'),
      fulfillment: env('FULFILLMENT_SERVICE_URL', 'http://127.0.0.1:3001'),
      accounting: env('ACCOUNTING_SERVICE_URL', 'http://127.0.0.1:3002'),
      coupon: env('COUPON_PROVIDER_URL', 'http://127.0.0.1:3003'),
      opsConsole: env('OPS_CONSOLE_URL', 'http://127.0.0.1:3004'),
    },
    payCallbackSecret: secrets.PAY_CALLBACK_SECRET || 'local-demo-secret-0123456789',
    mysqlUrl: mysqlUrl.replace(/\/+$/, ''),
    kafkaBrokers: env('KAFKA_BROKERS', '127.0.0.1:9092').split(',').filter(Boolean),
    kafkaSecurity: kafkaSecurityFromEnv(),
    databasePrefix: process.env.DATABASE_PREFIX ?? '',
    topicPrefix: process.env.TOPIC_PREFIX ?? 'trading.',
    opsToken: secrets.OPS_API_TOKEN || undefined,
  };
}

function report(checks: DemoCheck[], state: RunState): boolean {
  for (const c of checks.filter((x) => x.what))
    process.stdout.write(`  failed ${c.check}: ${c.what}\n`);
  const line = verdictLine(checks, state);
  process.stdout.write(`${line}\n`);
  return line.startsWith('demo: PASS');
}

async function main(): Promise<boolean> {
  const { values: flags } = parseArgs({
    options: { judge: { type: 'string' }, 'dead-letter-drill': { type: 'boolean' } },
  });
  const settings = settingsFromEnv();
  if (flags.judge) {
    const { checks, state } = await judgeExistingRun(settings, flags.judge);
    return report(checks, state);
  }
  const orders = Number(env('DEMO_ORDERS', '50'));
  const runId = newRunId();
  process.stdout.write(`demo run ${runId} against ${settings.urls.order}\n`);
  const outcome = await runDemo(settings, {
    runId,
    orders,
    progress: (line) => process.stdout.write(`${line}\n`),
    deadLetterDrill: flags['dead-letter-drill'] ?? false,
  });
  const publicConsoleUrl = env('DEMO_PUBLIC_OPS_CONSOLE_URL', settings.urls.opsConsole);
  process.stdout.write(
    `${formatSummary(outcome, `${publicConsoleUrl}/ops?order=${outcome.state.orders[0].id}`)}\n`,
  );
  return report(outcome.checks, outcome.state);
}

main()
  .then((ok) => process.exit(ok ? 0 : 1))
  .catch((error: Error) => {
    process.stdout.write(`${error.stack ?? error.message}\n`);
    process.stdout.write(`demo: FAIL run: ${error.message.split('\n')[0]}\n`);
    process.exit(1);
  });
