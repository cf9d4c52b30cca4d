import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** tools/apache-kafka: the pinned broker (pom.xml), its resolved jars and its logging setup. */
export const APACHE_KAFKA_TOOL_DIR = join(__dirname, '../../../../tools/apache-kafka');

/** The java class path of the resolved broker (every jar in tools/apache-kafka/lib). */
export const APACHE_KAFKA_CLASSPATH = join(APACHE_KAFKA_TOOL_DIR, 'lib', '*');

/** The log4j2 configuration every node and tool runs with. */
export const APACHE_KAFKA_LOG4J = join(APACHE_KAFKA_TOOL_DIR, 'log4j2.properties');

/**
 * Resolves the pinned broker with Maven when it is missing or the pin changed
 * (tools/apache-kafka/build.sh). Throws with the script's own words when Java 17+ or Maven is
 * missing, so every entry point says the same thing.
 */
export function ensureApacheKafkaInstalled(): void {
  const result = spawnSync('bash', [join(APACHE_KAFKA_TOOL_DIR, 'build.sh')], {
    stdio: ['ignore', 'inherit', 'pipe'],
    encoding: 'utf8',
  });
  process.stderr.write(result.stderr ?? '');
  if (result.status !== 0) {
    const said = (result.stderr ?? '').trim() || `exit ${result.status}`;
    throw new Error(`Apache Kafka could not be installed (tools/apache-kafka/build.sh): ${said}`);
  }
}

/** `java` arguments that run `mainClass` on the resolved broker's class path. */
export function javaArgs(mainClass: string, heap: { max: string; initial: string }): string[] {
  return [
    `-Xmx${heap.max}`,
    `-Xms${heap.initial}`,
    // Three nodes share two cores: the serial collector runs no parallel GC threads.
    '-XX:+UseSerialGC',
    '-Djava.awt.headless=true',
    `-Dlog4j2.configurationFile=${APACHE_KAFKA_LOG4J}`,
    '-cp',
    APACHE_KAFKA_CLASSPATH,
    mainClass,
  ];
}

/** The Apache Kafka release tools/apache-kafka/pom.xml pins (its `kafka.version`). */
export function pinnedApacheKafkaVersion(): string {
  const pom = readFileSync(join(APACHE_KAFKA_TOOL_DIR, 'pom.xml'), 'utf8');
  const version = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(pom)?.[1];
  if (!version) throw new Error('tools/apache-kafka/pom.xml names no <kafka.version>');
  return version;
}

/**
 * Runs one of the broker's command-line tools (`mainClass`, with a small heap) to its end;
 * throws `failure` with the tool's own output when it exits non-zero.
 */
export async function runKafkaTool(
  mainClass: string,
  toolArgs: string[],
  failure: string,
): Promise<void> {
  const args = [...javaArgs(mainClass, { max: '256m', initial: '64m' }), ...toolArgs];
  const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`${failure}:\n${output}`);
}
