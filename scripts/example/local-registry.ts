// An npm registry on loopback (Verdaccio) that holds the @outbox-inbox packages and nothing
// else: no uplink, so no package of the scope can come from anywhere but what was published to
// it. An app maps only the @outbox-inbox scope to it (`npmrcFor`); every other package comes
// from the npm registry as usual, so no public package can stand in for one of ours.
import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const verdaccio = require.resolve('verdaccio/bin/verdaccio');

/** A running loopback registry. */
export interface LocalRegistry {
  /** Its address, ending in `/`. */
  url: string;
  /** Publishes a package directory or tarball to it, as `npm publish` does to npm. */
  publish(packageDirOrTarball: string): void;
  /** `npm publish --dry-run` of a package directory or tarball, logged in; returns npm's log. */
  publishDryRun(packageDirOrTarball: string): string;
  /** The .npmrc line that sends the @outbox-inbox scope, and only it, to this registry. */
  npmrc: string;
  /** Stops the registry and deletes what it stored. */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function config(storage: string): string {
  return [
    `storage: ${join(storage, 'storage')}`,
    'auth:',
    '  htpasswd:',
    `    file: ${join(storage, 'htpasswd')}`,
    '    max_users: 1',
    'uplinks: {}',
    'packages:',
    "  '@outbox-inbox/*':",
    '    access: $all',
    '    publish: $authenticated',
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    'log: { type: stdout, format: pretty, level: warn }',
    '',
  ].join('\n');
}

async function untilAnswering(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited (${child.exitCode})`);
    try {
      if ((await fetch(`${url}-/ping`)).ok) return;
    } catch (error) {
      if (attempt > 600) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A user of the registry, as `npm adduser` makes one; returns its token. */
async function addUser(url: string): Promise<string> {
  const name = 'publisher';
  const response = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: `local-${process.pid}-${Date.now()}` }),
  });
  const body = (await response.json()) as { token?: string; error?: string };
  if (!response.ok || !body.token) throw new Error(`adduser: ${response.status} ${body.error}`);
  return body.token;
}

/** Starts a Verdaccio on a free loopback port, its storage in a temporary directory. */
export async function startLocalRegistry(): Promise<LocalRegistry> {
  const home = mkdtempSync(join(tmpdir(), 'outbox-inbox-registry-'));
  writeFileSync(join(home, 'config.yaml'), config(home));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const child = spawn(
    process.execPath,
    [verdaccio, '--config', join(home, 'config.yaml'), '--listen', `127.0.0.1:${port}`],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(home, { recursive: true, force: true });
  };
  try {
    await untilAnswering(url, child);
    const token = await addUser(url);
    const userconfig = join(home, 'publisher.npmrc');
    const hostPath = url.replace(/^http:/, '');
    writeFileSync(userconfig, `registry=${url}\n${hostPath}:_authToken=${token}\n`);
    const npmArgs = ['--userconfig', userconfig, '--registry', url];
    return {
      url,
      npmrc: `@outbox-inbox:registry=${url}\n`,
      publish: (target) => {
        execFileSync('npm', ['publish', target, ...npmArgs, '--loglevel', 'warn'], {
          cwd: home,
          stdio: ['ignore', 'ignore', 'inherit'],
        });
      },
      publishDryRun: (target) => {
        const result = spawnSync('npm', ['publish', target, ...npmArgs, '--dry-run'], {
          cwd: home,
          encoding: 'utf8',
        });
        if (result.status !== 0) throw new Error(`npm publish --dry-run failed:\n${result.stderr}`);
        return `${result.stdout}${result.stderr}`;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
