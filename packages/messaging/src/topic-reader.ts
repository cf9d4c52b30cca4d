import { randomUUID } from 'node:crypto';
import { Kafka } from 'kafkajs';
import { readHeaders } from './kafka-headers';

/** One message of a topic, as it was read. */
export interface RawDeadLetter {
  partition: number;
  offset: string;
  /** The message's timestamp, milliseconds since the epoch, as a string (as kafkajs gives it). */
  timestamp: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, string>;
}

/**
 * Reads a whole topic, up to the end it had when the read began. kafkajs has no manual
 * partition assignment, so it joins a throwaway group that never commits offsets.
 */
export async function readWholeTopic(
  kafka: Kafka,
  topic: string,
  timeoutMs = 30_000,
): Promise<RawDeadLetter[]> {
  const admin = kafka.admin();
  await admin.connect();
  let ends: Array<{ partition: number; high: string; low: string }>;
  try {
    ends = await admin.fetchTopicOffsets(topic);
  } finally {
    await admin.disconnect();
  }
  const pending = new Map<number, bigint>();
  for (const end of ends) {
    if (BigInt(end.high) > BigInt(end.low)) pending.set(end.partition, BigInt(end.high));
  }
  if (pending.size === 0) return [];

  const messages: RawDeadLetter[] = [];
  const consumer = kafka.consumer({
    groupId: `inbox-dlq-reader-${randomUUID()}`,
    allowAutoTopicCreation: false,
    // Short fetch polls: kafkajs waits for the poll in flight before it can disconnect.
    maxWaitTimeInMs: 100,
  });
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`reading ${topic} timed out`)), timeoutMs);
      consumer
        .run({
          autoCommit: false,
          eachMessage: async ({ partition, message }) => {
            const high = pending.get(partition);
            if (high === undefined || BigInt(message.offset) >= high) return;
            messages.push({
              partition,
              offset: message.offset,
              timestamp: message.timestamp,
              key: message.key,
              value: message.value,
              headers: readHeaders(message.headers),
            });
            if (BigInt(message.offset) + 1n >= high) pending.delete(partition);
            if (pending.size === 0) {
              clearTimeout(timer);
              resolve();
            }
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
  return messages.sort(
    (a, b) => a.partition - b.partition || Number(BigInt(a.offset) - BigInt(b.offset)),
  );
}
