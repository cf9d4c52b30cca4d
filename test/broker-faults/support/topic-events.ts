import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApacheKafkaCluster, waitFor, testKafkaConfig } from '@outbox-inbox/test-kit';
import { Kafka, logLevel } from 'kafkajs';

/**
 * The event keys of every message of `topic` up to its high watermark (what the cluster
 * acknowledges it holds), read from the beginning by a consumer of its own.
 */
export async function eventKeysOnTopic(brokers: string[], topic: string): Promise<string[]> {
  const kafka = new Kafka(
    testKafkaConfig({ clientId: 'topic-events', brokers, logLevel: logLevel.NOTHING }),
  );
  // Right after a leader election a broker may still name the old leader: asked again, by a
  // new admin (fresh metadata) each time.
  const ends = await waitFor(
    async () => {
      const admin = kafka.admin();
      await admin.connect();
      return admin.fetchTopicOffsets(topic).finally(() => admin.disconnect());
    },
    { timeoutMs: 60_000, description: `the high watermark of ${topic}` },
  );
  const end = new Map(ends.map((p) => [p.partition, Number(p.high)]));
  const seen = new Map<number, number>(ends.map((p) => [p.partition, 0]));
  const keys: string[] = [];
  const consumer = kafka.consumer({ groupId: `topic-events-${topic}-${Date.now()}` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        if (Number(message.offset) >= (end.get(partition) ?? 0)) return;
        keys.push((JSON.parse(String(message.value)) as { eventKey: string }).eventKey);
        seen.set(partition, Number(message.offset) + 1);
      },
    });
    await waitFor(() => [...end].every(([p, high]) => (seen.get(p) ?? 0) >= high), {
      timeoutMs: 120_000,
      description: `${topic} read up to its high watermark`,
    });
    return keys;
  } finally {
    await consumer.disconnect();
  }
}

/**
 * True when node `id`'s own log of `topic`'s partition `partition` holds every key of
 * `eventKeys`: the broker has appended them, whatever it has answered the producer. Read from
 * its segment files (the records are uncompressed JSON), as no Kafka API shows a leader's
 * records above the high watermark.
 */
export function nodeLogHolds(
  cluster: ApacheKafkaCluster,
  id: number,
  topic: string,
  partition: number,
  eventKeys: string[],
): boolean {
  const dir = join(cluster.state.dir, `node-${id}`, 'data', `${topic}-${partition}`);
  if (!existsSync(dir)) return false;
  const log = readdirSync(dir)
    .filter((f) => f.endsWith('.log'))
    .map((f) => readFileSync(join(dir, f), 'latin1'))
    .join('');
  return eventKeys.every((key) => log.includes(key));
}
