import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One benchmark figure, as a ratio against a baseline measured in the same run. */
export interface BenchResult {
  metric: string;
  value: number;
  unit: string;
  /** What `value` is compared with, e.g. "naive relay (article pseudo-code)". */
  baseline: string;
  baselineValue: number;
  /** value / baselineValue (or baselineValue / value for lower-is-better units; say so in `target`). */
  ratio: number;
  /** The target in words, e.g. ">= 30x naive". */
  target: string;
  met: boolean;
}

/** A result whose ratio is value / baselineValue (met: informational figures are always met). */
export function ratioResult(
  metric: string,
  value: number,
  unit: string,
  baseline: string,
  baselineValue: number,
  target: string,
  met = true,
): BenchResult {
  return {
    metric,
    value,
    unit,
    baseline,
    baselineValue,
    ratio: value / baselineValue,
    target,
    met,
  };
}

/** bench/results, or BENCH_RESULTS_DIR (a smoke run's figures kept out of the committed ones). */
export const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? join(__dirname, '..', 'results');

/** Writes `bench/results/<part>.json` and prints the results as a table. */
export function writeResults(part: string, results: BenchResult[]): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${part}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  printTable(part, results);
  return file;
}

export function printTable(title: string, results: BenchResult[]): void {
  const rows = results.map((r) => ({
    metric: r.metric,
    value: `${round(r.value)} ${r.unit}`,
    baseline: `${r.baseline}: ${round(r.baselineValue)}`,
    ratio: `${round(r.ratio)}x`,
    target: r.target,
    met: r.met ? 'yes' : 'NO',
  }));
  process.stdout.write(`\n${title}\n`);
  console.table(rows);
}

function round(n: number): string {
  return Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2);
}

/** Percentile (0..100) of a list of numbers, nearest-rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}
