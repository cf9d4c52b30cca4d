import { percentile } from './results';

/** Median (nearest-rank p50) of a list; NaN for an empty list. */
export function median(values: number[]): number {
  return percentile(values, 50);
}

/** p50, p99 and max of a list of latencies (or any numbers); NaN for an empty list. */
export interface Spread {
  p50: number;
  p99: number;
  max: number;
  count: number;
}

/** The spread of `values` (nearest-rank percentiles, like `percentile`). */
export function spread(values: number[]): Spread {
  return {
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    max: values.length === 0 ? NaN : values.reduce((a, b) => Math.max(a, b)),
    count: values.length,
  };
}
