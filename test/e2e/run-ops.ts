import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** What one `npm run ops` process did. */
export interface OpsRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm run ops -- ...args` as an operator's script would: a real process whose stdin is a
 * pipe (not a terminal), so destructive commands need --yes.
 */
export function runOps(...args: string[]): Promise<OpsRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['-r', '@swc-node/register', join(ROOT, 'scripts/ops.ts'), ...args],
      { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}
