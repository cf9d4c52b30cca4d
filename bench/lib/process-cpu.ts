import { readdirSync, readFileSync } from 'node:fs';

/** CPU time (user + system) process `pid` has used so far, in ms; NaN if gone. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** USER_HZ: 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** The pid of the local MariaDB/MySQL server when it runs on this machine, else undefined. */
export function localDatabasePid(): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const name = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (name === 'mariadbd' || name === 'mysqld') return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/**
 * How much of a per-process counter (CPU ms, write calls…) named processes used between
 * `start()` and `read()`.
 */
export class ProcessMeter {
  private before: Record<string, number> = {};

  constructor(
    readonly pids: Record<string, number>,
    private readonly counter: (pid: number) => number,
  ) {}

  start(): void {
    this.before = Object.fromEntries(
      Object.entries(this.pids).map(([name, pid]) => [name, this.counter(pid)]),
    );
  }

  /** What each process used since `start()`. */
  read(): Record<string, number> {
    return Object.fromEntries(
      Object.entries(this.pids).map(([name, pid]) => [name, this.counter(pid) - this.before[name]]),
    );
  }
}

/** CPU time used by named processes between `start()` and `read()`, in ms each. */
export class CpuMeter extends ProcessMeter {
  constructor(pids: Record<string, number>) {
    super(pids, cpuMs);
  }

  /** The given processes plus this one (`bench`) and the local database server, if any. */
  static withBenchAndDatabase(pids: Record<string, number>): CpuMeter {
    const database = localDatabasePid();
    return new CpuMeter({
      ...pids,
      bench: process.pid,
      ...(database !== undefined && { mariadbd: database }),
    });
  }
}

/**
 * Write system calls (`write`, `writev`) process `pid` has made so far, from `/proc/<pid>/io`
 * (`syscw`); NaN if gone or unreadable. For a Node service nearly all of them are socket writes:
 * one per database round trip, HTTP message or Kafka request (MariaDB's `send` is not counted).
 */
export function writeCalls(pid: number): number {
  try {
    const match = /^syscw: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
    return match ? Number(match[1]) : NaN;
  } catch {
    return NaN;
  }
}

/** Write system calls made by named processes between `start()` and `read()`. */
export class WriteCallMeter extends ProcessMeter {
  constructor(pids: Record<string, number>) {
    super(pids, writeCalls);
  }
}

/** Pids of the processes named `comm` (as /proc/<pid>/comm has it) whose parent is `parent`. */
export function childPidsNamed(parent: number, comm: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      // The field after the command name and the state is the parent's pid.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (name === comm && ppid === parent) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
