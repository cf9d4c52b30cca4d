import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** One app of the stack, run as a real process from its build output. */
export interface ServiceSpec {
  name:
    | 'order-service'
    | 'fulfillment-service'
    | 'accounting-service'
    | 'coupon-provider'
    | 'ops-console';
  port: number;
  env: Record<string, string>;
}

/**
 * V8 flags every service runs with; the Dockerfile sets the same through NODE_OPTIONS.
 * - `--max-semi-space-size=8`: V8 sizes the young generation's semi-spaces up to 16 MB from the
 *   machine's memory; at most 8 MB, the order-service peaked at 212–245 MB in `bench:e2e`
 *   instead of 231–261 MB, with no CPU cost per callback in `bench:http` A/B pairs (4 MB cut
 *   more but cost about 12 % more CPU per callback).
 * - `--max-old-space-size=1024`: with a heap limit of 2 GB or more (the default on a machine with
 *   8 GB or more) V8 lets the old generation grow to 4× what survived the last full GC before
 *   the next one; under a 1 GB limit the factor is about 1.5. The order-service's live heap is
 *   about 50 MB, and the growth to 250 MB under load was that garbage: it peaked at 152–162 MB
 *   instead of 255–263 MB on one order-service under create-and-pay bursts, CPU per callback
 *   unchanged (bench/README.md, "Changes kept").
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=8', '--max-old-space-size=1024'];

/** Path of a service's bundle, as the Docker image runs it. */
export function serviceMain(name: ServiceSpec['name']): string {
  return join(ROOT, 'dist', 'apps', name, 'main.js');
}

/** The environment variable that sets a service's port, e.g. ORDER_SERVICE_PORT. */
export function portVariable(name: ServiceSpec['name']): string {
  return `${name.toUpperCase().replace(/-/g, '_')}_PORT`;
}

/**
 * Runs `main.js migrate` to completion, with `env` on top of the service's own (the stack gives
 * DATABASE_MIGRATE_URL there, so that the service never holds the owner's URL); rejects with its
 * output when it fails.
 */
export function migrate(spec: ServiceSpec, env: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...SERVICE_NODE_FLAGS, serviceMain(spec.name), 'migrate'],
      {
        env: { ...process.env, ...spec.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${spec.name} migrate exited ${code}:\n${output}`)),
    );
  });
}

/** Lines of a service's own output kept to explain a failed start. */
const TAIL_LINES = 30;

/** A running service process; its output goes to `log` (prefixed) so failures can be read. */
export class ServiceProcess {
  private child?: ChildProcess;
  private exited?: Promise<number | null>;
  private readonly tail: string[] = [];

  constructor(
    readonly spec: ServiceSpec,
    private readonly log: (line: string) => void,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.spec.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** True from start until the process exits or is killed. */
  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  start(): void {
    if (this.running) throw new Error(`${this.spec.name} is running`);
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, serviceMain(this.spec.name)], {
      env: { ...process.env, ...this.spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const forward = (chunk: Buffer) =>
      chunk
        .toString()
        .split('\n')
        .filter(Boolean)
        .forEach((line) => {
          this.tail.push(line);
          if (this.tail.length > TAIL_LINES) this.tail.shift();
          this.log(`[${this.spec.name}] ${line}`);
        });
    child.stdout?.on('data', forward);
    child.stderr?.on('data', forward);
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    this.child = child;
  }

  /** Resolves with the exit code once the process has exited (null: killed by a signal). */
  async exitCode(): Promise<number | null> {
    if (!this.exited) throw new Error(`${this.spec.name} was never started`);
    return this.exited;
  }

  /**
   * Resolves once GET /health/ready answers 200 (the database answers and, in a consuming
   * service, the consumer has joined its group: HTTP answers before that); rejects if the
   * process dies or time runs out.
   */
  async waitHealthy(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(this.startFailure());
      try {
        const response = await fetch(`${this.url}/health/ready`, {
          signal: AbortSignal.timeout(1_000),
        });
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(
      `${this.spec.name} was not healthy after ${timeoutMs} ms; its last output:\n${this.lastOutput()}`,
    );
  }

  /** Why the process exited while starting: the cause when it is a known one, and its output. */
  private startFailure(): string {
    const status = this.child?.exitCode ?? this.child?.signalCode;
    const output = this.tail.join('\n');
    const cause = /EADDRINUSE/.test(output)
      ? `: port ${this.spec.port} is in use (set ${portVariable(this.spec.name)} to another port)`
      : /ECONNREFUSED|ER_ACCESS_DENIED|ER_DBACCESS_DENIED/.test(output) &&
          /mysql|3306|DATABASE/i.test(output)
        ? ': the database is not reachable with DATABASE_URL'
        : '';
    return `${this.spec.name} exited while starting (${status})${cause}; its last output:\n${this.lastOutput()}`;
  }

  private lastOutput(): string {
    return this.tail.length > 0
      ? this.tail.map((line) => `  | ${line}`).join('\n')
      : '  | (no output)';
  }

  /** Stops the process: SIGTERM lets it shut down gracefully, SIGKILL is a crash. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 15_000): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}
