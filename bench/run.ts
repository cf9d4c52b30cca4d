/**
 * npm run bench: every part in sequence (each in its own process, so one part's heap and
 * timers never disturb the next), with progress lines, then one table of all results.
 * Writes bench/results/environment.json first and bench/results/summary.md last.
 * `npm run bench -- http e2e` runs only the named parts. The service parts (http, e2e) run
 * dist/: `npm run bench` builds first. With KAFKA=apache (KAFKA_NODES=1|3) one Apache Kafka
 * cluster is started for the whole run and every part measures on it (through KAFKA_BROKERS);
 * the mock stays the default.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { kafkaChoice, resolveInfrastructure, startKafka } from '@app/test-kit';
import { describeEnvironment } from './lib/environment';
import { markdownTable } from './lib/markdown';
import { progress } from './lib/progress';
import { BenchResult, printTable, RESULTS_DIR } from './lib/results';

const PARTS = ['relay', 'peers', 'consumer', 'db', 'http', 'e2e'] as const;

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
  const asked = process.argv.slice(2);
  const unknown = asked.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length > 0)
    throw new Error(`unknown part(s) ${unknown.join(', ')}; known: ${PARTS.join(', ')}`);
  const parts = asked.length > 0 ? PARTS.filter((p) => asked.includes(p)) : [...PARTS];

  // One cluster for every part: each part's process finds it through KAFKA_BROKERS.
  const cluster = kafkaChoice().kind === 'apache' ? await startKafka() : undefined;
  try {
    if (cluster) {
      process.env.KAFKA_BROKERS = cluster.brokers.join(',');
      if (cluster.cluster) process.env.KAFKA_CLUSTER_STATE = cluster.cluster.stateFile;
      progress(`Kafka: ${process.env.KAFKA_BROKERS} (${cluster.label})`);
    }
    await runParts(parts);
  } finally {
    await cluster?.stop();
  }
}

async function runParts(parts: string[]): Promise<void> {
  const infra = await resolveInfrastructure();
  try {
    const environment = await describeEnvironment(infra);
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(
      join(RESULTS_DIR, 'environment.json'),
      `${JSON.stringify(environment, null, 2)}\n`,
    );
    progress(`environment: ${JSON.stringify(environment)}`);
  } finally {
    await infra.stop();
  }

  const started = Date.now();
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

  const all = parts
    .filter((part) => !failed.includes(part) && existsSync(join(RESULTS_DIR, `${part}.json`)))
    .map((part) => ({
      part,
      results: JSON.parse(readFileSync(join(RESULTS_DIR, `${part}.json`), 'utf8')) as BenchResult[],
    }));
  printTable(
    `all parts (${((Date.now() - started) / 60_000).toFixed(1)} min)`,
    all.flatMap(({ part, results }) =>
      results.map((r) => ({ ...r, metric: `${part}: ${r.metric}` })),
    ),
  );
  writeFileSync(join(RESULTS_DIR, 'summary.md'), markdownTable(all));
  if (failed.length > 0) {
    progress(`failed parts: ${failed.join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
