import { spawn } from 'node:child_process';
import { ensureApacheKafkaInstalled, javaArgs } from './broker-install';

/** One record for the console producer: a key and a value, each one line of text. */
export interface ConsoleRecord {
  key: string;
  value: string;
}

/**
 * Produces `records` to `topic` with Apache Kafka's own console producer
 * (`org.apache.kafka.tools.ConsoleProducer`, from the pinned release's kafka-tools): a client
 * outside this codebase, in another language, that sends no headers and knows nothing of the
 * envelope. Waits with acks=all until every record is written, and rejects with the tool's
 * output if it fails.
 */
export async function produceWithConsoleProducer(
  brokers: string[],
  topic: string,
  records: ConsoleRecord[],
): Promise<void> {
  for (const r of records)
    if (/[\t\n]/.test(r.key + r.value))
      throw new Error('a console record is one line, its key and value without tabs');
  ensureApacheKafkaInstalled();
  const args = [
    ...javaArgs('org.apache.kafka.tools.ConsoleProducer', { max: '256m', initial: '64m' }),
    '--bootstrap-server',
    brokers.join(','),
    '--topic',
    topic,
    '--producer-property',
    'acks=all',
    '--reader-property',
    'parse.key=true',
    '--reader-property',
    'key.separator=\t',
  ];
  const child = spawn('java', args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  child.stdin.end(records.map((r) => `${r.key}\t${r.value}\n`).join(''));
  const code = await exited;
  if (code !== 0) throw new Error(`the console producer exited with ${code}:\n${output}`);
}
