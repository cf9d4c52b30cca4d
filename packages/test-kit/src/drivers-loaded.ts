import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

/**
 * The database drivers (mysql2, pg) that requiring `modulePath` loads, in a fresh Node process,
 * after running `then`, a script that may use what the module exports as `entry`. An adopter
 * on PostgreSQL installs pg and not mysql2, and the reverse, so a package's entry must load
 * neither; only the dialect a DataSource names loads its own.
 */
export function driversLoadedBy(modulePath: string, then = ''): string[] {
  const script = `
    const entry = require(${JSON.stringify(modulePath)});
    ${then}
    const loaded = Object.keys(require.cache)
      .map((file) => /node_modules\\/(mysql2|pg)\\//.exec(file)?.[1])
      .filter(Boolean);
    console.log(JSON.stringify([...new Set(loaded)].sort()));
  `;
  const out = execFileSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop()!) as string[];
}
