import { readFileSync } from 'node:fs';

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
