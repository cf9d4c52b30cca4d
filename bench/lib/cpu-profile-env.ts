import { join } from 'node:path';

/**
 * The environment that makes a service process write a V8 CPU profile into
 * `BENCH_CPU_PROF=<dir>` when it stops (an inspector preload, since `--cpu-prof` is not allowed
 * in NODE_OPTIONS); empty when BENCH_CPU_PROF is not set. Read the profile with
 * bench/profile-summary.ts.
 */
export function cpuProfileEnv(): Record<string, string> {
  const dir = process.env.BENCH_CPU_PROF;
  return dir
    ? {
        BENCH_CPU_PROF: dir,
        NODE_OPTIONS: `--require ${join(__dirname, 'cpu-profile-preload.js')}`,
      }
    : {};
}
