// npm run test:example: packs the libraries (scripts/pack-libs.sh), publishes them to a registry
// on loopback (scripts/example/local-registry.ts) and runs examples/minimal-app once per engine,
// MariaDB then PostgreSQL, printing `example on <engine>: PASS|FAIL` for each. Each run is an
// adopter's app of its own in a temporary directory: its package.json declares the example's
// dependencies, the @outbox-inbox packages BY NAME (their siblings resolved by npm from the
// loopback registry, the only source of the scope: the app's .npmrc maps the scope there and
// nothing else), the rest at this repository's locked versions with the one driver of its
// engine (mysql2 or pg), never @nestjs/swagger, and npm installs them without
// --legacy-peer-deps, so that npm itself checks the packages' peer ranges. Any peer
// warning of npm fails the run, and so does a package the app can resolve but must not need:
// the other engine's driver, or @nestjs/swagger (only the packages' /http subpaths take it).
// Nothing resolves from this repository's node_modules but tsc and @types/node for the build.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createPostgresTestDatabase,
  createTestDatabase,
  startTestEnvironment,
  TestDatabase,
  TestEnvironment,
} from '@app/test-kit';
import { LocalRegistry, startLocalRegistry } from './example/local-registry';

const root = join(__dirname, '..');
const repoModules = join(root, 'node_modules');
const packages = join(root, 'dist/packages');

interface Engine {
  name: 'mariadb' | 'postgres';
  driver: 'mysql2' | 'pg';
  createDatabase(env: TestEnvironment): Promise<TestDatabase>;
}

const ENGINES: Engine[] = [
  {
    name: 'mariadb',
    driver: 'mysql2',
    createDatabase: (env) => createTestDatabase(env.infra.mysqlUrl, 'minimal_app'),
  },
  {
    name: 'postgres',
    driver: 'pg',
    createDatabase: () => createPostgresTestDatabase('minimal_app'),
  },
];

/** The drivers an app on `engine` must neither declare nor be able to load. */
function otherDrivers(engine: Engine): string[] {
  return ENGINES.map((e) => e.driver).filter((driver) => driver !== engine.driver);
}

/** Runs a command, its output shown and returned; throws when it fails. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync(command, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  process.stdout.write(result.stdout ?? '');
  process.stderr.write(result.stderr ?? '');
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status})`);
  return `${result.stdout}${result.stderr}`;
}

/** The example's package.json for `engine`: @outbox-inbox/* by name as it has them, the rest locked. */
function adopterManifest(engine: Engine): object {
  const example = JSON.parse(readFileSync(join(root, 'examples/minimal-app/package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages;
  const dependencies = Object.entries(example.dependencies as Record<string, string>)
    .filter(([name]) => !otherDrivers(engine).includes(name))
    .map(([name, range]) =>
      name.startsWith('@outbox-inbox/')
        ? [name, range]
        : [name, lock[`node_modules/${name}`].version as string],
    );
  const { devDependencies: _, ...manifest } = example;
  return { ...manifest, dependencies: Object.fromEntries(dependencies) };
}

/**
 * Fails unless every @outbox-inbox package the app installed is the very tarball published to
 * `registry`: its integrity in the app's lockfile is the one the registry serves.
 */
async function checkInstalledFrom(app: string, registry: LocalRegistry): Promise<void> {
  const installed = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')).packages;
  const ours = Object.entries(installed as Record<string, { version: string; integrity: string }>)
    .filter(([path]) => path.includes('node_modules/@outbox-inbox/'))
    .map(([path, entry]) => ({ name: path.replace(/^.*node_modules\//, ''), ...entry }));
  if (ours.length < 4) throw new Error(`the app installed only ${ours.map((p) => p.name)}`);
  for (const { name, version, integrity } of ours) {
    const packument = (await (
      await fetch(`${registry.url}${name.replace('/', '%2f')}`)
    ).json()) as {
      versions: Record<string, { dist: { integrity: string } }>;
    };
    if (packument.versions[version]?.dist.integrity !== integrity)
      throw new Error(
        `${name}@${version} in the app is not the tarball published to ${registry.url}`,
      );
  }
}

/** Installs the app as an adopter would; fails on a peer warning or a package it must not see. */
function install(app: string, engine: Engine): void {
  const output = run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], app);
  const peerWarnings = output
    .split('\n')
    .filter((l) => /npm warn/i.test(l) && /peer|ERESOLVE/i.test(l));
  if (peerWarnings.length > 0)
    throw new Error(`npm warned about peers:\n${peerWarnings.join('\n')}`);
  const resolve = createRequire(join(app, 'package.json')).resolve;
  const resolvable = (name: string) => {
    try {
      resolve(name);
      return true;
    } catch {
      return false;
    }
  };
  const leaked = ['@nestjs/swagger', ...otherDrivers(engine)].filter(resolvable);
  if (leaked.length > 0)
    throw new Error(`the app on ${engine.name} can resolve ${leaked.join(', ')}`);
  if (!resolvable(engine.driver))
    throw new Error(`the app on ${engine.name} lacks ${engine.driver}`);
}

async function runOn(engine: Engine, env: TestEnvironment, registry: LocalRegistry): Promise<void> {
  const app = mkdtempSync(join(tmpdir(), `minimal-app-${engine.name}-`));
  try {
    for (const part of ['src', 'test', 'tsconfig.json']) {
      cpSync(join(root, 'examples/minimal-app', part), join(app, part), { recursive: true });
    }
    writeFileSync(join(app, 'package.json'), JSON.stringify(adopterManifest(engine), null, 2));
    writeFileSync(join(app, '.npmrc'), registry.npmrc);
    install(app, engine);
    await checkInstalledFrom(app, registry);

    // tsc and @types/node are build tools, not the app's runtime: this repository's serve.
    writeFileSync(
      join(app, 'tsconfig.runner.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        compilerOptions: { typeRoots: [join(repoModules, '@types')] },
      }),
    );
    run(join(repoModules, '.bin/tsc'), ['-p', 'tsconfig.runner.json'], app);

    const database = await engine.createDatabase(env);
    try {
      const topic = await env.createTopic('minimal.ticket.events', 3);
      const node = ['--test', '--test-force-exit', '--test-timeout=180000', '--test-reporter=spec'];
      run('node', [...node, 'build/test/'], app, {
        NODE_PATH: '',
        DATABASE_URL: database.url,
        KAFKA_BROKERS: env.infra.kafkaBrokers.join(','),
        TICKET_TOPIC: topic,
      });
    } finally {
      await database.drop();
    }
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
}

/** Each engine's verdict; throws only before the first run (packing, the test environment). */
async function main(): Promise<boolean> {
  run('bash', [join(root, 'scripts/pack-libs.sh')], root);
  const registry = await startLocalRegistry();
  const env = await startTestEnvironment().catch(async (error: unknown) => {
    await registry.stop();
    throw error;
  });
  let passed = true;
  try {
    for (const file of readdirSync(packages).filter((f) => f.endsWith('.tgz')))
      registry.publish(join(packages, file));
    // The consumer's dead-letter and retry topics, by their default names: topics exist
    // before anyone subscribes or produces. Both runs share them, one run at a time.
    await env.infra.kafka.createTopics({ 'ticket-notifier.dlq': 1, 'ticket-notifier.retry': 1 });
    for (const engine of ENGINES) {
      try {
        await runOn(engine, env, registry);
        console.log(`example on ${engine.name}: PASS`);
      } catch (error) {
        console.error(error);
        console.log(`example on ${engine.name}: FAIL`);
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
    for (const engine of ENGINES) console.log(`example on ${engine.name}: FAIL`);
    process.exit(1);
  },
);
