import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.build-stamp');

/** Every file under dist/ with its modification time. */
function distSnapshot(): Record<string, number> {
  if (!existsSync(DIST)) return {};
  const files: Record<string, number> = {};
  for (const entry of readdirSync(DIST, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[path] = statSync(path).mtimeMs;
  }
  return files;
}

describe('npm run demo -- --help', () => {
  it('prints the options and exits 0 without building anything, even when dist/ is stale', async () => {
    // A stamp older than every source: anything that ran build:if-stale would rebuild dist/.
    const stamp = existsSync(STAMP) ? statSync(STAMP) : undefined;
    if (stamp) utimesSync(STAMP, new Date(0), new Date(0));
    try {
      const before = distSnapshot();
      const { stdout, stderr } = await promisify(execFile)('npm', ['run', 'demo', '--', '--help'], {
        cwd: ROOT,
      });
      expect(stdout).toMatch(/Usage: npm run demo -- \[options\]/);
      for (const option of ['--orders N', '--keep', '-h, --help']) expect(stdout).toContain(option);
      expect(`${stdout}${stderr}`).not.toMatch(/build: dist|webpack|kafka-mock: built/);
      expect(distSnapshot()).toEqual(before);
    } finally {
      if (stamp) utimesSync(STAMP, stamp.atime, stamp.mtime);
    }
  });
});
