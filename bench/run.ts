/**
 * npm run bench: every part in sequence (each in its own process, so one part's heap and
 * timers never disturb the next), with progress lines, then one table of all results.
 * Writes bench/results/environment.json first and bench/results/summary.md last.
 * `npm run bench -- http e2e` runs only the named parts. The service parts (http, e2e) run
 * dist/: `npm run bench` builds first. With KAFKA=apache (KAFKA_NODES=1|3) one Apache Kafka
 * cluster is started for the whole run and every part measures on it (through KAFKA_BROKERS);
 * the mock stays the default.
 *
 * `npm run bench -- --brokers mock,apache [part …]` (or BENCH_BROKERS=mock,apache) compares
 * brokers: the parts run on each broker in turn (the mock, then an Apache Kafka cluster of
 * KAFKA_NODES nodes, 3 by default, started for them and stopped after), each broker's results
 * go to bench/results/<broker>/ (its environment.json and <part>.json), and summary.md holds
 * one table with a column per broker.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  KafkaBroker,
  kafkaChoice,
  resolveInfrastructure,
  startKafka,
} from '@outbox-inbox/test-kit';
import { brokerConsoleRows, brokerMarkdownTable, BrokerRun } from './lib/broker-table';
import { BenchEnvironment, describeEnvironment } from './lib/environment';
import { markdownTable } from './lib/markdown';
import { progress } from './lib/progress';
import { BenchResult, printTable, RESULTS_DIR } from './lib/results';
import { BenchBroker, comparisonNodes, parseRunOptions } from './lib/run-options';

const PARTS = [
  'relay',
  'peers',
  'relay-pg',
  'peers-pg',
  'consumer',
  'consumer-pg',
  'db',
  'http',
  'e2e',
] as const;

type PartResults = Array<{ part: string; results: BenchResult[] }>;

function runPart(part: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['-r', '@swc-node/register', join(__dirname, `${part}.bench.ts`)],
      { stdio: 'inherit' },
    );
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

async function main(): Promise<void> {
  const options = parseRunOptions(process.argv.slice(2), PARTS);
  const started = Date.now();
  if (options.brokers) {
    await compareBrokers(options.parts, options.brokers, started);
    return;
  }

  // One cluster for every part: each part's process finds it through KAFKA_BROKERS.
  const cluster = kafkaChoice().kind === 'apache' ? await startKafka() : undefined;
  try {
    if (cluster) useCluster(cluster);
    const { results, failed } = await runParts(options.parts, RESULTS_DIR);
    printTable(
      `all parts (${minutesSince(started)} min)`,
      results.flatMap(({ part, results: list }) =>
        list.map((r) => ({ ...r, metric: `${part}: ${r.metric}` })),
      ),
    );
    writeFileSync(join(RESULTS_DIR, 'summary.md'), markdownTable(results));
    reportFailures(failed);
  } finally {
    await cluster?.stop();
  }
}

/**
 * The parts on each broker in turn, each broker's results in RESULTS_DIR/<broker>/, then one
 * table with a column per broker (RESULTS_DIR/summary.md).
 */
async function compareBrokers(
  parts: string[],
  brokers: BenchBroker[],
  started: number,
): Promise<void> {
  const nodes = comparisonNodes();
  const runs: BrokerRun[] = [];
  const environments: Record<string, BenchEnvironment> = {};
  const failed: string[] = [];
  for (const broker of brokers) {
    progress(`broker ${broker}: ${parts.join(', ')}`);
    const saved = { ...process.env };
    let cluster: KafkaBroker | undefined;
    try {
      delete process.env.KAFKA_BROKERS;
      delete process.env.KAFKA_CLUSTER_STATE;
      process.env.KAFKA = broker;
      process.env.KAFKA_NODES = nodes;
      if (broker === 'apache') {
        cluster = await startKafka();
        useCluster(cluster);
      }
      // Every part reads BENCH_RESULTS_DIR: this broker's results stay apart from the other's.
      const dir = join(RESULTS_DIR, broker);
      process.env.BENCH_RESULTS_DIR = dir;
      const run = await runParts(parts, dir);
      runs.push({ broker, parts: run.results });
      environments[broker] = run.environment;
      failed.push(...run.failed.map((part) => `${part} on ${broker}`));
    } finally {
      await cluster?.stop();
      restoreEnv(saved);
    }
  }

  const title = `${parts.join(', ')} on ${brokers.join(', ')} (${minutesSince(started)} min)`;
  process.stdout.write(`\n${title}\n`);
  console.table(brokerConsoleRows(runs));
  const described = brokers
    .map((b) => {
      const { kind, version, brokers: count } = environments[b].broker;
      return `**${b}**: ${kind}, ${version}, ${count} brokers (\`${b}/environment.json\`)`;
    })
    .join('; ');
  writeFileSync(
    join(RESULTS_DIR, 'summary.md'),
    `${title}, from ${environments[brokers[0]].date}. ${described}.\n\n${brokerMarkdownTable(runs)}`,
  );
  reportFailures(failed);
}

function useCluster(cluster: KafkaBroker): void {
  process.env.KAFKA_BROKERS = cluster.brokers.join(',');
  if (cluster.cluster) process.env.KAFKA_CLUSTER_STATE = cluster.cluster.stateFile;
  progress(`Kafka: ${process.env.KAFKA_BROKERS} (${cluster.label})`);
}

function restoreEnv(saved: NodeJS.ProcessEnv): void {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
}

/** Writes `dir`/environment.json, runs each part, and reads back the results of those that passed. */
async function runParts(
  parts: string[],
  dir: string,
): Promise<{ results: PartResults; failed: string[]; environment: BenchEnvironment }> {
  const infra = await resolveInfrastructure();
  let environment: BenchEnvironment;
  try {
    environment = await describeEnvironment(infra);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'environment.json'), `${JSON.stringify(environment, null, 2)}\n`);
    progress(`environment: ${JSON.stringify(environment)}`);
  } finally {
    await infra.stop();
  }

  const failed: string[] = [];
  for (const [i, part] of parts.entries()) {
    progress(`[${i + 1}/${parts.length}] ${part}: running`);
    const partStarted = Date.now();
    const code = await runPart(part);
    const seconds = ((Date.now() - partStarted) / 1000).toFixed(0);
    if (code !== 0) failed.push(part);
    progress(
      `[${i + 1}/${parts.length}] ${part}: ${code === 0 ? 'done' : `FAILED (exit ${code})`} in ${seconds} s`,
    );
  }

  const results = parts
    .filter((part) => !failed.includes(part) && existsSync(join(dir, `${part}.json`)))
    .map((part) => ({
      part,
      results: JSON.parse(readFileSync(join(dir, `${part}.json`), 'utf8')) as BenchResult[],
    }));
  return { results, failed, environment };
}

function reportFailures(failed: string[]): void {
  if (failed.length === 0) return;
  progress(`failed parts: ${failed.join(', ')}`);
  process.exitCode = 1;
}

function minutesSince(started: number): string {
  return ((Date.now() - started) / 60_000).toFixed(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
