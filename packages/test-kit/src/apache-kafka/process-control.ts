import { readFileSync } from 'node:fs';

/**
 * True while `pid` runs (or is stopped by SIGSTOP). A zombie counts as gone: a node started by
 * a process that has since exited may wait for a reaper that never comes.
 */
export function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state letter follows the command name, which is in parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Sends `signal` to `pid` if it still runs; a process already gone is not an error. */
export function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Resolves once `pid` has exited; after `killAfterMs` it is sent SIGKILL. */
export async function waitForExit(pid: number, killAfterMs: number): Promise<void> {
  const killAt = Date.now() + killAfterMs;
  while (processAlive(pid)) {
    if (Date.now() >= killAt) signalProcess(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
