/**
 * Where a service's CPU went, from a profile the bench wrote (BENCH_CPU_PROF=<dir>
 * npm run bench:http): `node -r @swc-node/register bench/profile-summary.ts <file> [requests]`.
 * With the number of requests served, also CPU ms per request.
 */
import { readFileSync } from 'node:fs';
import { cpuByCategory, CpuProfile } from './profile/cpu-categories';

function main(): void {
  const [file, requestsArg] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [requests]');
  const totals = cpuByCategory(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  const all = Object.values(totals).reduce((a, b) => a + b, 0);
  const busy = all - (totals.idle ?? 0);
  const requests = Number(requestsArg ?? NaN);
  process.stdout.write(
    `profiled ${(all / 1000).toFixed(1)} s, busy ${(busy / 1000).toFixed(1)} s` +
      (requests > 0 ? `, ${(busy / requests).toFixed(2)} ms CPU per request\n` : '\n'),
  );
  for (const [name, ms] of Object.entries(totals).sort((a, b) => b[1] - a[1])) {
    if (name === 'idle') continue;
    process.stdout.write(
      `${((100 * ms) / busy).toFixed(1).padStart(5)}% of busy` +
        (requests > 0 ? `  ${(ms / requests).toFixed(2)} ms/request` : '') +
        `  ${name}\n`,
    );
  }
}

main();
