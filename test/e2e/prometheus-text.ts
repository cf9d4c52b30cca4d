/**
 * The value of one sample in a Prometheus text exposition: the sample named `name` whose
 * labels include every pair of `labels`; the sum when several match, undefined when none does.
 */
export function sampleValue(
  exposition: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  let total: number | undefined;
  for (const line of exposition.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [
        m[1],
        m[2],
      ]),
    );
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) {
      total = (total ?? 0) + Number(match[3]);
    }
  }
  return total;
}
