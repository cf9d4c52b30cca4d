import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** A running bare-server.ts process. */
export interface BareServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts bench/http/bare-server.ts `kind` in its own Node process and waits for its port. */
export function startBareServer(kind: 'nest' | 'express'): Promise<BareServer> {
  return startServerScript('bare-server.ts', [kind]);
}

/**
 * Starts bench/http/`script` with `args` in its own Node process and waits for the
 * "PORT <n>" line it prints once listening.
 */
export async function startServerScript(script: string, args: string[]): Promise<BareServer> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join(__dirname, script), ...args],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    lines.on('line', (line) => {
      const match = /^PORT (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
    });
    void exited.then(() =>
      reject(new Error(`${script} ${args.join(' ')} exited before listening`)),
    );
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
