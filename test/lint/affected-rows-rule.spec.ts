import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');
const ESLINT = join(ROOT, 'node_modules', '.bin', 'eslint');
const PLANTED = 'export const changed = (r: { affectedRows: number }) => r.affectedRows === 1;\n';

/** Lints `code` as if it were the file at `path` (nothing is written); the problems' rule ids. */
async function lintAs(path: string, code: string): Promise<string[]> {
  const run = promisify(execFile)(ESLINT, ['--stdin', '--stdin-filename', path, '-f', 'json'], {
    cwd: ROOT,
  });
  run.child.stdin?.end(code);
  const { stdout } = await run.catch((error: { stdout?: string }) => {
    if (!error.stdout) throw error;
    return { stdout: error.stdout };
  });
  const [result] = JSON.parse(stdout) as Array<{ messages: Array<{ ruleId: string | null }> }>;
  return result.messages.map((m) => m.ruleId ?? 'parse error');
}

describe('the lint rule on reading affected rows', () => {
  it('refuses a hand-cast affectedRows read in bench code, apps and libraries', async () => {
    expect(await lintAs('bench/lib/planted.ts', PLANTED)).toEqual(['no-restricted-syntax']);
    expect(await lintAs('apps/order-service/src/planted.ts', PLANTED)).toEqual([
      'no-restricted-syntax',
    ]);
  });

  it("leaves the raw bench baselines and the database library's own reader alone", async () => {
    expect(await lintAs('bench/e2e/raw-planted.ts', PLANTED)).toEqual([]);
    expect(await lintAs('packages/database/src/planted.ts', PLANTED)).toEqual([]);
  });

  it('accepts the read through affectedRows()', async () => {
    const code =
      "import { affectedRows } from '@outbox-inbox/database';\n" +
      'export const changed = (r: unknown) => affectedRows(r) === 1;\n';
    expect(await lintAs('bench/lib/planted.ts', code)).toEqual([]);
  });
});
