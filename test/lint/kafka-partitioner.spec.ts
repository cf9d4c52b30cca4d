import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SCANNED = ['apps', 'libs', 'packages', 'scripts', 'bench', 'test', 'examples', 'tools'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'build']);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED_DIRS.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return /\.(ts|mts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** The argument text of each `.producer(…)` call in `text`, with the line it starts on. */
function producerCalls(text: string): Array<{ line: number; args: string }> {
  const calls: Array<{ line: number; args: string }> = [];
  for (const match of text.matchAll(/\.producer\(/g)) {
    let depth = 1;
    let end = match.index + match[0].length;
    while (depth > 0 && end < text.length) {
      if (text[end] === '(') depth++;
      else if (text[end] === ')') depth--;
      end++;
    }
    const line = text.slice(0, match.index).split('\n').length;
    calls.push({ line, args: text.slice(match.index + match[0].length, end - 1) });
  }
  return calls;
}

const MURMUR2 = "partitioner: 'murmur2_random'";

/**
 * Each kafkajs producer made without a partitioner, as `path:line`. kafkajs 2 logs "KafkaJS
 * v2.0.0 switched default partitioner" once per process that makes one; passing the
 * Java-compatible DefaultPartitioner explicitly keeps every key on the partition it has today.
 */
function producersWithoutPartitioner(path: string, text: string): string[] {
  return (
    producerCalls(text)
      // A librdkafka producer (@confluentinc/kafka-javascript) names murmur2_random, the same
      // Java-compatible murmur2 (its default, consistent_random, is a CRC32).
      .filter(({ args }) => !args.includes('createPartitioner') && !args.includes(MURMUR2))
      .map(({ line }) => `${path}:${line}`)
  );
}

describe('Every kafkajs producer names its partitioner', () => {
  it('passes createPartitioner wherever a producer is made, so no process logs the warning', () => {
    const offenders = SCANNED.flatMap((dir) => filesUnder(join(ROOT, dir)))
      .filter((file) => file !== __filename)
      .flatMap((file) =>
        producersWithoutPartitioner(relative(ROOT, file), readFileSync(file, 'utf8')),
      );
    expect(offenders).toEqual([]);
  });

  it('finds a producer made without one (the rule is not blind)', () => {
    const planted = [
      'const a = kafka.producer();',
      'const b = kafka.producer({ idempotent: false, retry: { retries: f(1) } });',
      'const c = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });',
      "const d = confluent.producer({ 'enable.idempotence': true });",
      "const e = confluent.producer({ partitioner: 'murmur2_random' });",
    ].join('\n');
    expect(producersWithoutPartitioner('planted.ts', planted)).toEqual([
      'planted.ts:1',
      'planted.ts:2',
      'planted.ts:4',
    ]);
  });
});
