// npm run test:example: packs the libraries (scripts/pack-libs.sh), installs the TARBALLS into
// a temporary copy of examples/minimal-app, compiles it with tsc against the packages' typings
// and runs its test against the MariaDB and the Kafka (mock) the other tests use. The
// frameworks the packages take as peers (Nest, TypeORM, mysql2, kafkajs, class-validator) are
// this repository's own node_modules (NODE_PATH, tsconfig paths), so the run needs no
// network; only @outbox-inbox/* come from the tarballs.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestEnvironment } from '@app/test-kit';

const root = join(__dirname, '..');
const repoModules = join(root, 'node_modules');

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): void {
  const result = spawnSync(command, args, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status})`);
}

async function main(): Promise<void> {
  execFileSync('bash', [join(root, 'scripts/pack-libs.sh')], { stdio: 'inherit' });
  const packages = join(root, 'dist/packages');
  const tarballs = readdirSync(packages).filter((f) => f.endsWith('.tgz'));

  const app = mkdtempSync(join(tmpdir(), 'minimal-app-'));
  const env = await startTestEnvironment();
  try {
    for (const part of ['src', 'test', 'tsconfig.json', 'package.json']) {
      cpSync(join(root, 'examples/minimal-app', part), join(app, part), { recursive: true });
    }
    // The example's @outbox-inbox/* dependencies become its tarballs; the rest is the peers.
    const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
    manifest.dependencies = Object.fromEntries(
      tarballs.map((file) => {
        const name = `@outbox-inbox/${file.replace(/^outbox-inbox-/, '').replace(/-[\d.]+\.tgz$/, '')}`;
        return [name, `file:${join(packages, file)}`];
      }),
    );
    delete manifest.devDependencies;
    writeFileSync(join(app, 'package.json'), JSON.stringify(manifest, null, 2));
    run('npm', ['install', '--no-audit', '--no-fund', '--legacy-peer-deps', '--offline'], app);

    writeFileSync(
      join(app, 'tsconfig.runner.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        compilerOptions: {
          baseUrl: '.',
          paths: { '*': [`${repoModules}/*`, `${repoModules}/@types/*`] },
          typeRoots: [join(repoModules, '@types')],
        },
      }),
    );
    run(join(repoModules, '.bin/tsc'), ['-p', 'tsconfig.runner.json'], app);

    const database = await env.createDatabase('minimal_app');
    const topic = await env.createTopic('minimal.ticket.events', 3);
    // The consumer's dead-letter and retry topics, by their default names: topics exist
    // before anyone subscribes or produces.
    await env.infra.kafka.createTopics({ 'ticket-notifier.dlq': 1, 'ticket-notifier.retry': 1 });
    run('node', ['--test', '--test-force-exit', '--test-reporter=spec', 'build/test/'], app, {
      NODE_PATH: repoModules,
      DATABASE_URL: database.url,
      KAFKA_BROKERS: env.infra.kafkaBrokers.join(','),
      TICKET_TOPIC: topic,
      KAFKAJS_NO_PARTITIONER_WARNING: '1',
    });
    console.log('test:example: PASS');
  } finally {
    await env.stop();
    rmSync(app, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  console.log('test:example: FAIL');
  process.exit(1);
});
