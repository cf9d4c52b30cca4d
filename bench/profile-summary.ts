/**
 * Where a service's CPU went, from a profile the bench wrote (BENCH_CPU_PROF=<dir>
 * npm run bench:http, or bench:e2e for all four services):
 * `node -r @swc-node/register bench/profile-summary.ts <file> [units] [from-to]`. With the number
 * of units served (requests, events), also CPU ms per unit; with `from-to` (seconds since the
 * profile started, e.g. `17-33`), only that window. The busy share per 2 s is printed first, to
 * find the window. Two views: by layer (the package or
 * service code that made the call), and self time by source (the package
 * or Node module of the sampled function itself). See SERVICE_CATEGORIES for how layers are charged.
 */
import { readFileSync } from 'node:fs';
import {
  cpuByCategory,
  CpuProfile,
  profileWindow,
  selfTimeBySource,
} from './profile/cpu-categories';

const TOP_SOURCES = 15;

function main(): void {
  const [file, unitsArg, windowArg] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [units] [from-to]');
  const whole = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  process.stdout.write(`busy per 2 s: ${busyTimeline(whole, 2).join(' ')}\n`);
  const [from, to] = (windowArg ?? '').split('-').map(Number);
  const profile = windowArg ? profileWindow(whole, from, to) : whole;
  const units = Number(unitsArg ?? NaN);
  const totals = cpuByCategory(profile);
  const all = Object.values(totals).reduce((a, b) => a + b, 0);
  const busy = all - (totals.idle ?? 0);
  process.stdout.write(
    `profiled ${(all / 1000).toFixed(1)} s, busy ${(busy / 1000).toFixed(1)} s` +
      (units > 0 ? `, ${(busy / units).toFixed(2)} ms CPU per unit\n` : '\n'),
  );
  const print = (heading: string, byName: Record<string, number>, limit = Infinity) => {
    process.stdout.write(`${heading}\n`);
    Object.entries(byName)
      .filter(([name]) => name !== 'idle')
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .forEach(([name, ms]) =>
        process.stdout.write(
          `${((100 * ms) / busy).toFixed(1).padStart(5)}% of busy` +
            (units > 0 ? `  ${(ms / units).toFixed(3)} ms/unit` : '') +
            `  ${name}\n`,
        ),
      );
  };
  print('by layer:', totals);
  print(`self time by source (top ${TOP_SOURCES}):`, selfTimeBySource(profile), TOP_SOURCES);
}

/** The busy share of each `stepSeconds` of the profile, as `<start>s:<percent>%`. */
function busyTimeline(profile: CpuProfile, stepSeconds: number): string[] {
  const idle = new Set(
    profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id),
  );
  const busy: number[] = [];
  let elapsed = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    elapsed += delta;
    const bin = Math.floor(elapsed / 1e6 / stepSeconds);
    busy[bin] = (busy[bin] ?? 0) + (idle.has(id) ? 0 : delta);
  });
  return Array.from(
    busy,
    (us, bin) => `${bin * stepSeconds}s:${Math.round((us ?? 0) / (stepSeconds * 1e4))}%`,
  );
}

main();
