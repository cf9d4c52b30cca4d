import { randomUUID } from 'node:crypto';
import { IHeaders, Kafka, KafkaConfig, logLevel, Partitioners } from 'kafkajs';

interface Copy {
  topic: string;
  partition: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: IHeaders;
}

/**
 * Redelivers events the way Kafka does after a consumer crash or a producer retry: reads
 * `topics` from the start up to their current end, and writes a byte-for-byte copy of every
 * message whose key is in `keys` back to the same partition. Returns the copies per topic.
 * `security`: the client's SASL and TLS (kafkaSecurityFromEnv), none by default.
 */
export async function republishCopies(
  brokers: string[],
  topics: string[],
  keys: ReadonlySet<string>,
  security: Pick<KafkaConfig, 'ssl' | 'sasl'> = {},
): Promise<Record<string, number>> {
  const kafka = new Kafka({
    clientId: 'demo-redeliver',
    brokers,
    ...security,
    logLevel: logLevel.NOTHING,
  });
  const copies = await readMatching(kafka, topics, keys);
  const producer = kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
  });
  await producer.connect();
  try {
    for (const topic of topics) {
      const messages = copies.filter((c) => c.topic === topic);
      if (messages.length > 0) await producer.send({ topic, acks: -1, messages });
    }
  } finally {
    await producer.disconnect();
  }
  const perTopic: Record<string, number> = {};
  for (const topic of topics) perTopic[topic] = copies.filter((c) => c.topic === topic).length;
  return perTopic;
}

/** Every message of `topics` up to their end when called, whose key is in `keys`. */
async function readMatching(
  kafka: Kafka,
  topics: string[],
  keys: ReadonlySet<string>,
): Promise<Copy[]> {
  const admin = kafka.admin();
  await admin.connect();
  const remaining = new Map<string, bigint>();
  try {
    for (const topic of topics) {
      for (const p of await admin.fetchTopicOffsets(topic)) {
        if (BigInt(p.high) > BigInt(p.low))
          remaining.set(`${topic}:${p.partition}`, BigInt(p.high));
      }
    }
  } finally {
    await admin.disconnect();
  }
  const found: Copy[] = [];
  if (remaining.size === 0) return found;
  const consumer = kafka.consumer({
    groupId: `demo-redeliver-${randomUUID()}`,
    maxWaitTimeInMs: 200,
  });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          autoCommit: false,
          eachBatch: async ({ batch }) => {
            const id = `${batch.topic}:${batch.partition}`;
            const end = remaining.get(id);
            if (end === undefined) return;
            for (const m of batch.messages) {
              if (BigInt(m.offset) >= end) break;
              if (m.key && keys.has(m.key.toString())) {
                found.push({
                  topic: batch.topic,
                  partition: batch.partition,
                  key: m.key,
                  value: m.value,
                  headers: m.headers ?? {},
                });
              }
            }
            if (BigInt(batch.lastOffset()) + 1n >= end) {
              remaining.delete(id);
              if (remaining.size === 0) resolve();
            }
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
  return found;
}
