import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

/** Longest life of a child that should kill itself: it must never outlive its test. */
const CHILD_LIFE_MS = 45_000;

/**
 * Runs the TypeScript file `file` in a child Node process (through swc-node, from the repository
 * root) with `config` as JSON in environment variable `configVariable`: a process that is to
 * die by a signal in the middle of its work (a consumer, a relay). Resolves with the signal
 * that ended it; rejects, with its stderr, when it exits by itself or is still alive after
 * 45 s (then it is killed).
 */
export function runKilledChild(
  file: string,
  configVariable: string,
  config: unknown,
): Promise<NodeJS.Signals> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', file], {
    cwd: ROOT,
    env: { ...process.env, [configVariable]: JSON.stringify(config) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} did not die in time: ${stderr}`));
    }, CHILD_LIFE_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === null) reject(new Error(`${file} exited with ${code}: ${stderr}`));
      else resolve(signal);
    });
  });
}
