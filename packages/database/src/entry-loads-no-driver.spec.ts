import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// An adopter on PostgreSQL installs pg and not mysql2, and the reverse: the package's entry
// must load neither driver, only the subpath of the engine a DataSource names does.
const ROOT = join(__dirname, '../../..');

/** The drivers loaded by requiring `modulePath` (then `then`) in a fresh Node process. */
function driversLoadedBy(modulePath: string, then = ''): string[] {
  const script = `
    require(${JSON.stringify(modulePath)});
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

describe("the database package's entry", () => {
  const entry = join(ROOT, 'packages/database/src/index.ts');

  it('loads neither mysql2 nor pg', () => {
    expect(driversLoadedBy(entry)).toEqual([]);
  });

  it('loads only the driver of the engine a DataSource names, when its dialect is asked for', () => {
    const dialectOf = (type: string) =>
      `require(${JSON.stringify(entry)}).sqlDialectOf({ options: { type: '${type}' } });`;
    expect(driversLoadedBy(entry, dialectOf('postgres'))).toEqual(['pg']);
    expect(driversLoadedBy(entry, dialectOf('mariadb'))).toEqual(['mysql2']);
  });
});
