/** The brokers `npm run bench -- --brokers …` measures on, each in turn. */
export const BENCH_BROKERS = ['mock', 'apache'] as const;
export type BenchBroker = (typeof BENCH_BROKERS)[number];

/** What `npm run bench` was asked for. */
export interface RunOptions {
  /** The parts to run, in the runner's order (all when none is named). */
  parts: string[];
  /**
   * With `--brokers` (or BENCH_BROKERS): every part once per broker, in this order, each
   * broker's results apart and one table with a column per broker. Without: one broker, the
   * one KAFKA / KAFKA_BROKERS names, as always.
   */
  brokers?: BenchBroker[];
}

/**
 * Reads `[--brokers mock,apache | --brokers=mock,apache] [part …]`; `--brokers` wins over
 * BENCH_BROKERS. A comparison starts every broker it names itself, so it refuses
 * KAFKA_BROKERS (a cluster someone else runs) rather than silently measuring something else.
 */
export function parseRunOptions(
  argv: string[],
  knownParts: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): RunOptions {
  const args = [...argv];
  let brokerList = env.BENCH_BROKERS || undefined;
  const asked: string[] = [];
  while (args.length > 0) {
    const arg = args.shift()!;
    if (arg === '--brokers') {
      const value = args.shift();
      if (value === undefined || value.startsWith('-'))
        throw new Error('--brokers needs a list, e.g. --brokers mock,apache');
      brokerList = value;
    } else if (arg.startsWith('--brokers=')) {
      brokerList = arg.slice('--brokers='.length);
    } else if (arg.startsWith('-')) {
      throw new Error(`unknown option ${arg}; known: --brokers mock,apache`);
    } else {
      asked.push(arg);
    }
  }

  const unknown = asked.filter((p) => !knownParts.includes(p));
  if (unknown.length > 0)
    throw new Error(`unknown part(s) ${unknown.join(', ')}; known: ${knownParts.join(', ')}`);
  const parts = asked.length > 0 ? knownParts.filter((p) => asked.includes(p)) : [...knownParts];
  if (brokerList === undefined) return { parts };

  const brokers = brokerList
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  const wrong = brokers.filter((b) => !(BENCH_BROKERS as readonly string[]).includes(b));
  if (brokers.length === 0 || wrong.length > 0)
    throw new Error(
      `--brokers takes ${BENCH_BROKERS.join(', ')} (comma-separated), got "${brokerList}"`,
    );
  if (new Set(brokers).size !== brokers.length)
    throw new Error(`--brokers names a broker twice: "${brokerList}"`);
  if (env.KAFKA_BROKERS)
    throw new Error(
      '--brokers starts the brokers it compares: unset KAFKA_BROKERS (without --brokers, ' +
        'npm run bench measures the cluster KAFKA_BROKERS names)',
    );
  return { parts, brokers: brokers as BenchBroker[] };
}

/** Apache Kafka's nodes in a comparison: KAFKA_NODES, else 3 (replication factor 3, acks=all). */
export function comparisonNodes(env: NodeJS.ProcessEnv = process.env): '1' | '3' {
  const nodes = env.KAFKA_NODES || '3';
  if (nodes !== '1' && nodes !== '3')
    throw new Error(`KAFKA_NODES must be 1 or 3, got "${env.KAFKA_NODES}"`);
  return nodes;
}
