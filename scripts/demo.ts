/**
 * `npm run demo [-- --orders N] [-- --keep] [-- --help]`: the whole trading chain on this machine without
 * Docker, in a run of its own. The four services run against the local MySQL/MariaDB (and the
 * Kafka the KAFKA switch names: KAFKA_BROKERS, else Apache Kafka with KAFKA=apache, else the
 * librdkafka mock) under database and topic names of this run; the driver pays orders with
 * duplicated, late and reordered callbacks, crashes a consumer, redelivers events on Kafka,
 * waits until the run is at rest and judges it with the invariant checker.
 * The last line is `demo: PASS ...` or `demo: FAIL <check>: <what>`, and the exit code matches.
 * The options are read before anything is built, so `--help` answers at once.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DEMO_HELP, parseDemoOptions } from './demo/demo-options';
import { DemoSettings, newRunId } from './demo/demo-settings';
import { removeEarlierRuns } from './demo/earlier-runs';
import { crashAndRestart } from './demo/crash';
import { runDemo } from './demo/driver';
import { formatSummary } from './demo/summary';
import { verdictLine } from './demo/verdict';
import { settingsOf } from './demo/stack-settings';
import { startStack, Stack } from './stack/start-stack';

async function main(): Promise<boolean> {
  const options = parseDemoOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(DEMO_HELP);
    return true;
  }
  const { orders, keep } = options;
  buildIfStale();
  const runId = newRunId();
  const databasePrefix = `${process.env.DATABASE_PREFIX ?? ''}demo_${runId}_`;
  const topicPrefix = `${process.env.TOPIC_PREFIX ?? 'trading.'}demo.${runId}.`;
  await removeEarlierRuns(
    process.env.DATABASE_PREFIX ?? '',
    process.env.TOPIC_PREFIX ?? 'trading.',
    runId,
  );

  process.stdout.write(`demo run ${runId}: databases ${databasePrefix}*, topics ${topicPrefix}*\n`);
  process.stdout.write('starting the four services and the ops console (migrations first)…\n');
  let stack: Stack;
  try {
    stack = await startStack({
      databasePrefix,
      topicPrefix,
      opsConsole: true,
      // A crashed consumer's partitions move to its restarted self within seconds.
      env: {
        'accounting-service': {
          KAFKA_SESSION_TIMEOUT_MS: '8000',
          KAFKA_HEARTBEAT_INTERVAL_MS: '1000',
        },
      },
      log: () => undefined,
    });
  } catch (error) {
    process.stdout.write(`${(error as Error).message}\n`);
    process.stdout.write(`demo: FAIL start: ${firstLine(error)}\n`);
    return false;
  }
  try {
    const settings = settingsOf(stack);
    process.stdout.write(`Kafka: ${stack.kafkaBrokers.join(',')} (${stack.kafka.label})\n`);
    if (stack.kafkaSecured)
      process.stdout.write(
        `Kafka secured: SASL_SSL with SCRAM-SHA-512, each service its own principal, the ACLs of ` +
          `deploy/kafka/acls.json in force for ${topicPrefix}*\n`,
      );
    const outcome = await runDemo(settings, {
      runId,
      orders,
      progress: (line) => process.stdout.write(`${line}\n`),
      whileSettling: () => crashAndRestart(settings, stack.services['accounting-service']),
      deadLetterDrill: true,
    });
    const opsUrl = `${settings.urls.opsConsole}/ops?order=${outcome.state.orders[0].id}`;
    process.stdout.write(`${formatSummary(outcome, opsUrl)}\n`);
    for (const c of outcome.checks.filter((x) => x.what))
      process.stdout.write(`  failed ${c.check}: ${c.what}\n`);
    const line = verdictLine(outcome.checks, outcome.state);
    if (keep) process.stdout.write(keepLines(settings, opsUrl, stack.opsApiToken));
    // Printed once, and last: with --keep too, the verdict stays the last line.
    process.stdout.write(`${line}\n`);
    if (keep) {
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
    }
    return line.startsWith('demo: PASS');
  } finally {
    await stack.stop();
  }
}

/** The services' bundles, built when missing or older than the sources (scripts/build-if-stale.sh). */
function buildIfStale(): void {
  const build = spawnSync('bash', [join(__dirname, 'build-if-stale.sh')], { stdio: 'inherit' });
  if (build.status !== 0)
    throw new Error(`the build failed (exit ${build.status ?? build.signal})`);
}

/** What --keep prints: where every service answers, and how to reach them from a shell. */
function keepLines(settings: DemoSettings, opsUrl: string, token: string): string {
  const { urls } = settings;
  return [
    'the stack keeps running until Ctrl-C:',
    `  order-service        ${urls.order}`,
    `  fulfillment-service  ${urls.fulfillment}`,
    `  accounting-service   ${urls.accounting}`,
    `  coupon-provider      ${urls.coupon}`,
    `  ops-console          ${urls.opsConsole}   (operator page: ${opsUrl})`,
    'the browser asks for a user name (any) and the operator token as password; for the CLI:',
    `  export OPS_API_TOKEN=${token}`,
    `  npm run ops -- inbox:stats --service ${urls.fulfillment}`,
    `  npm run ops -- dlq:list --service ${urls.accounting}`,
    '',
  ].join('\n');
}

function firstLine(error: unknown): string {
  const message = (error as Error).message ?? String(error);
  return message.split('\n')[0];
}

main()
  .then((ok) => process.exit(ok ? 0 : 1))
  .catch((error: Error) => {
    process.stdout.write(`${error.stack ?? error.message}\n`);
    process.stdout.write(`demo: FAIL run: ${firstLine(error)}\n`);
    process.exit(1);
  });
