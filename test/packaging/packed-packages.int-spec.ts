import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LocalRegistry, startLocalRegistry } from '../../scripts/example/local-registry';

// The packed packages (scripts/pack-libs.sh), as they would go to npm: publint and
// arethetypeswrong find nothing in any of them, and `npm publish --dry-run` warns of nothing.
//
// The packages ship a CommonJS and an ES module build. An app whose own code imports them and
// whose tooling (or a dependency) requires them loads both: each must still hand out ONE
// OutboxModule, OutboxWriter, error class, token and symbol, or Nest's injection by class and
// `instanceof` break. The packed tarballs are unpacked as npm would install them into an app
// under dist/ (so Nest, TypeORM and the drivers resolve from this repository), and a real Node
// process loads them (dual-build-probe.mjs).
const root = join(__dirname, '../..');
const app = join(root, 'dist/dual-build-app');
const scope = join(app, 'node_modules/@outbox-inbox');

interface Probe {
  registered: Record<string, string>;
  identity: Record<string, { names: number; differing: string[]; missingFromRequire: string[] }>;
  injection: Record<string, { served: boolean }>;
}

const tarballs = join(root, 'dist/packages');
const tarballFiles = () => readdirSync(tarballs).filter((f) => f.endsWith('.tgz'));

function installPackedPackages(): void {
  rmSync(app, { recursive: true, force: true });
  mkdirSync(scope, { recursive: true });
  for (const file of tarballFiles()) {
    const unpacked = mkdtempSync(join(app, 'unpack-'));
    execFileSync('tar', ['-xzf', join(tarballs, file), '-C', unpacked]);
    const name = file.replace(/^outbox-inbox-/, '').replace(/-\d+\.\d+\.\d+\.tgz$/, '');
    renameSync(join(unpacked, 'package'), join(scope, name));
    rmSync(unpacked, { recursive: true });
  }
  copyFileSync(join(__dirname, 'dual-build-probe.mjs'), join(app, 'probe.mjs'));
}

function probe(order: string): Probe {
  const result = spawnSync(process.execPath, [join(app, 'probe.mjs'), order], {
    cwd: app,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  if (result.status !== 0) throw new Error(`probe ${order} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout) as Probe;
}

const ENTRY_POINTS = [
  '@outbox-inbox/database',
  '@outbox-inbox/database/mysql',
  '@outbox-inbox/database/postgres',
  '@outbox-inbox/inbox',
  '@outbox-inbox/inbox/http',
  '@outbox-inbox/inbox/testing',
  '@outbox-inbox/messaging',
  '@outbox-inbox/messaging/http',
  '@outbox-inbox/messaging/testing',
  '@outbox-inbox/outbox',
  '@outbox-inbox/outbox/http',
  '@outbox-inbox/outbox/testing',
];
const PACKAGES = ['database', 'inbox', 'messaging', 'outbox'].map((p) => `@outbox-inbox/${p}`);
const packageBuild = (name: string) => join(root, 'dist/packages-build', name.split('/')[1]);
const tarballOf = (name: string) => join(tarballs, `${name.slice(1).replace('/', '-')}-0.2.0.tgz`);

/** Runs a tool of this repository's node_modules/.bin; its output, whatever its exit code. */
function tool(name: string, args: string[], cwd = root): { status: number | null; output: string } {
  const result = spawnSync(join(root, 'node_modules/.bin', name), args, { cwd, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

beforeAll(() => {
  execFileSync('bash', [join(root, 'scripts/pack-libs.sh')], { cwd: root, stdio: 'ignore' });
}, 600_000);

describe('the packed packages, ready for npm', () => {
  let registry: LocalRegistry;
  beforeAll(async () => {
    registry = await startLocalRegistry();
  }, 120_000);
  afterAll(async () => {
    await registry?.stop();
  });

  it('are four, one per package', () => {
    expect(tarballFiles().sort()).toEqual(
      PACKAGES.map((name) => `${name.slice(1).replace('/', '-')}-0.2.0.tgz`).sort(),
    );
  });

  it.each(PACKAGES)('%s: publint finds nothing to say, not even a suggestion', (name) => {
    const { status, output } = tool('publint', ['--strict'], packageBuild(name));
    expect(status).toBe(0);
    expect(output).not.toMatch(/Errors|Warnings|Suggestions/);
  });

  it.each(PACKAGES)('%s: arethetypeswrong finds no problem in any resolution mode', (name) => {
    const { status, output } = tool('attw', [tarballOf(name), '--format', 'json']);
    expect(status).toBe(0);
    expect(JSON.parse(output).problems).toEqual({});
  });

  it.each(PACKAGES)('%s: npm publish --dry-run warns of nothing', (name) => {
    const output = registry.publishDryRun(packageBuild(name));
    expect(output).toContain(`${name}@0.2.0`);
    expect(output.split('\n').filter((line) => /npm warn/i.test(line))).toEqual([]);
  });
});

describe('both builds of the packed packages in one process', () => {
  beforeAll(() => installPackedPackages(), 600_000);

  it.each([
    ['import-first', 'module'],
    ['require-first', 'commonjs'],
  ])(
    '%s: every export of every entry point is the same value by import and by require',
    (order, first) => {
      const { registered, identity, injection } = probe(order);
      expect(registered).toEqual(Object.fromEntries(PACKAGES.map((name) => [name, first])));
      expect(Object.keys(identity).sort()).toEqual([...ENTRY_POINTS].sort());
      for (const entry of ENTRY_POINTS) {
        expect([entry, identity[entry].differing, identity[entry].missingFromRequire]).toEqual([
          entry,
          [],
          [],
        ]);
        expect(identity[entry].names).toBeGreaterThan(0);
      }
      expect(injection).toEqual({
        importedModuleRequiredClass: { served: true },
        requiredModuleImportedClass: { served: true },
      });
    },
  );

  it.each([
    ['import-only', 'module'],
    ['require-only', 'commonjs'],
  ])('%s: the %s build alone loads every entry point and serves Nest', (order, build) => {
    const { registered, injection } = probe(order);
    expect(registered).toEqual(Object.fromEntries(PACKAGES.map((name) => [name, build])));
    expect(injection).toEqual({ alone: { served: true } });
  });
});
