import { readdirSync, readFileSync } from 'node:fs';

/** Resident set size of process `pid` in MB, from /proc/<pid>/status (VmRSS); NaN if gone. */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Samples the RSS of named processes every `intervalMs` and keeps each one's peak. */
export class RssSampler {
  readonly peakMb: Record<string, number> = {};
  private timer?: NodeJS.Timeout;

  constructor(private readonly pids: Record<string, number>) {
    for (const name of Object.keys(pids)) this.peakMb[name] = 0;
  }

  start(intervalMs = 250): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }

  private sample(): void {
    for (const [name, pid] of Object.entries(this.pids)) {
      const mb = rssMb(pid);
      if (mb > this.peakMb[name]) this.peakMb[name] = mb;
    }
  }
}

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
