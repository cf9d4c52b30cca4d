// npm run test:example: packs the libraries (scripts/pack-libs.sh) and runs each lane of the
// example matrix (scripts/example/example-lanes.ts: examples/<lane>) as an adopter's app, printing
// `example on <lane>: PASS|FAIL` for each. A lane is copied into a temporary directory, where
// `npm ci` installs its third-party packages at the versions of its own committed lockfile; the
// @outbox-inbox/* packages, which no committed lockfile holds (a fresh build's integrity would
// not match it), are then installed by name and version from a registry on loopback
// (scripts/example/local-registry.ts, Verdaccio, no uplink for the scope) to which this run
// published the packed tarballs; the app's .npmrc sends that scope, and only it, there, and every
// @outbox-inbox package of its lockfile must come from it.
// Neither install uses --legacy-peer-deps: npm checks the packages' peer ranges itself, and any
// peer warning fails the lane, as does `npm ls` finding an invalid peer, a third-party version
// that moved from the lockfile, or a package the app can resolve but must not need (the other
// engine's driver, or @nestjs/swagger, which only the packages' /http subpaths take). The lane
// then builds with its own tsc (skipLibCheck off), runs its migrations and its tests on a fresh
// database of its engine and a fresh topic of the broker: KAFKA_BROKERS when set (CI's Apache
// Kafka cluster), else the test kit's mock cluster.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestEnvironment, TestEnvironment } from '@outbox-inbox/test-kit';
import { EXAMPLE_LANES, ExampleLane } from './example/example-lanes';
import { startLocalRegistry } from './example/local-registry';
import { PackageSource, registrySource } from './example/package-source';

const root = join(__dirname, '..');

/** Runs a command, its output shown (when `quiet`, its errors if it fails) and returned; throws when it fails. */
function run(
  command: string,
  args: string[],
  cwd: string,
  { env = {}, quiet = false }: { env?: NodeJS.ProcessEnv; quiet?: boolean } = {},
): string {
  const result = spawnSync(command, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (!quiet) process.stdout.write(result.stdout ?? '');
  if (!quiet || result.status !== 0) process.stderr.write(result.stderr ?? '');
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status})`);
  return `${result.stdout}${result.stderr}`;
}

/** Throws when npm's output holds a peer-dependency warning. */
function refusePeerWarnings(output: string): void {
  const warnings = output
    .split('\n')
    .filter((line) => /npm warn/i.test(line) && /peer|ERESOLVE/i.test(line));
  if (warnings.length > 0) throw new Error(`npm warned about peers:\n${warnings.join('\n')}`);
}

/** The version of each package a lockfile holds, by its path in node_modules. */
function lockedVersions(lockfile: string): Map<string, string> {
  const packages: Record<string, { version?: string }> = JSON.parse(
    readFileSync(lockfile, 'utf8'),
  ).packages;
  return new Map(
    Object.entries(packages)
      .filter(([path, entry]) => path !== '' && entry.version !== undefined)
      .map(([path, entry]) => [path, entry.version!]),
  );
}

/** Throws when the install moved a third-party package away from the lane's committed lockfile. */
function refuseMovedVersions(lane: ExampleLane, app: string): void {
  const installed = lockedVersions(join(app, 'package-lock.json'));
  const moved = [...lockedVersions(join(root, 'examples', lane.name, 'package-lock.json'))]
    .filter(([path, version]) => installed.get(path) !== version)
    .map(([path, version]) => `${path}: ${version} locked, ${installed.get(path)} installed`);
  if (moved.length > 0) throw new Error(`versions moved from the lockfile:\n${moved.join('\n')}`);
}

/** Throws unless every @outbox-inbox package of the app's lockfile came from `source`. */
function refuseOtherSources(app: string, source: PackageSource): void {
  const packages: Record<string, { resolved?: string }> = JSON.parse(
    readFileSync(join(app, 'package-lock.json'), 'utf8'),
  ).packages;
  const ours = Object.entries(packages).filter(([path]) =>
    path.includes('node_modules/@outbox-inbox/'),
  );
  const elsewhere = ours.filter(([, entry]) => !entry.resolved?.startsWith(source.registry));
  if (ours.length === 0 || elsewhere.length > 0)
    throw new Error(`@outbox-inbox not all from ${source.registry}: ${JSON.stringify(ours)}`);
}

/** Throws when the app can resolve a package it must not need, or lacks its driver. */
function refuseLeaks(lane: ExampleLane, app: string): void {
  const resolve = createRequire(join(app, 'package.json')).resolve;
  const resolvable = (name: string) => {
    try {
      resolve(name);
      return true;
    } catch {
      return false;
    }
  };
  const leaked = ['@nestjs/swagger', lane.otherDriver].filter(resolvable);
  if (leaked.length > 0) throw new Error(`${lane.name} can resolve ${leaked.join(', ')}`);
  if (!resolvable(lane.driver)) throw new Error(`${lane.name} lacks ${lane.driver}`);
}

/** Installs the lane in `app` as an adopter would: its lockfile, then the packages by name. */
function install(lane: ExampleLane, app: string, source: PackageSource): void {
  if (source.npmrc.length > 0) writeFileSync(join(app, '.npmrc'), `${source.npmrc.join('\n')}\n`);
  const npm = ['--no-audit', '--no-fund', '--prefer-offline'];
  refusePeerWarnings(run('npm', ['ci', ...npm], app));
  // With `resolved` in the lockfile (whatever the user's npm config), to see where each came from.
  const install = ['install', ...npm, '--omit-lockfile-registry-resolved=false', ...source.specs];
  refusePeerWarnings(run('npm', install, app));
  run('npm', ['ls', '--all'], app, { quiet: true });
  refuseOtherSources(app, source);
  refuseMovedVersions(lane, app);
  refuseLeaks(lane, app);
}

async function runLane(lane: ExampleLane, env: TestEnvironment, source: PackageSource) {
  const app = mkdtempSync(join(tmpdir(), `${lane.name}-`));
  try {
    cpSync(join(root, 'examples', lane.name), app, {
      recursive: true,
      filter: (path) => !/[\\/](node_modules|build)$/.test(path),
    });
    install(lane, app, source);
    const database = await lane.createDatabase(env);
    try {
      const topic = await env.createTopic('tickets.events', 3);
      for (const script of lane.scripts) {
        run('npm', ['run', script], app, {
          env: {
            NODE_PATH: '',
            DATABASE_URL: database.url,
            KAFKA_BROKERS: env.infra.kafkaBrokers.join(','),
            TICKET_TOPIC: topic,
          },
        });
      }
    } finally {
      await database.drop();
    }
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
}

/** Each lane's verdict; throws only before the first lane (packing, the test environment). */
async function main(): Promise<boolean> {
  run('bash', [join(root, 'scripts/pack-libs.sh')], root);
  const registry = await startLocalRegistry();
  const env = await startTestEnvironment().catch(async (error: unknown) => {
    await registry.stop();
    throw error;
  });
  let passed = true;
  try {
    const source = registrySource(registry, join(root, 'dist/packages'));
    // The consumer's dead-letter and retry topics, by their default names: topics exist
    // before anyone subscribes or produces. The lanes share them, one lane at a time.
    await env.infra.kafka.createTopics({ 'ticket-notifier.dlq': 1, 'ticket-notifier.retry': 1 });
    for (const lane of EXAMPLE_LANES) {
      try {
        await runLane(lane, env, source);
        console.log(`example on ${lane.name}: PASS`);
      } catch (error) {
        console.error(error);
        console.log(`example on ${lane.name}: FAIL`);
        passed = false;
      }
    }
  } finally {
    await env
      .stop()
      .catch((error: unknown) => console.error('stopping the test environment:', error));
    await registry.stop();
  }
  return passed;
}

main().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error: unknown) => {
    console.error(error);
    for (const lane of EXAMPLE_LANES) console.log(`example on ${lane.name}: FAIL`);
    process.exit(1);
  },
);
