import { percentile } from './results';

/** One measured series: a run that returns a rate (higher is better). */
export type SeriesRun = () => Promise<number>;

/**
 * Runs every series once per round, in the order given, for `rounds` rounds, logging each
 * round's rates; returns every series' rates and their medians. The machine is shared and its
 * load comes and goes: alternating puts a burst of load from elsewhere on one round of every
 * series rather than on all rounds of one.
 */
export async function alternatingRounds<Name extends string>(
  rounds: number,
  series: Record<Name, SeriesRun>,
  log: (line: string) => void,
): Promise<{ runs: Record<Name, number[]>; median: Record<Name, number> }> {
  const names = Object.keys(series) as Name[];
  const runs = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
    Name,
    number[]
  >;
  for (let round = 1; round <= rounds; round++) {
    for (const name of names) runs[name].push(await series[name]());
    log(
      `round ${round}: ${names
        .map((name) => `${name} ${runs[name][round - 1].toFixed(0)}`)
        .join(', ')} events/s`,
    );
  }
  log(`rates of ${rounds} rounds: ${JSON.stringify(runs)}`);
  const median = Object.fromEntries(
    names.map((name) => [name, percentile(runs[name], 50)]),
  ) as Record<Name, number>;
  return { runs, median };
}
