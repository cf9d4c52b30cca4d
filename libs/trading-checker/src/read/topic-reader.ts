import { randomUUID } from 'node:crypto';
import { readHeaders } from '@outbox-inbox/messaging';
import { Admin, Kafka, KafkaMessage, Partitioners } from 'kafkajs';
import { eventIdentity } from './event-identity';

/** Where a partition's retained messages begin and end (high = the next offset). */
export interface PartitionRange {
  partition: number;
  low: bigint;
  high: bigint;
}

/** One message as the checker reads it: its position, time and headers. */
export interface TopicMessage {
  partition: number;
  offset: bigint;
  timestamp: Date;
  /**
   * The message's headers, with the event's identity (type, key, aggregate and version) taken
   * from its envelope as the consumers take it (`eventIdentity`), headers or not.
   */
  headers: Record<string, string>;
}

/** The partitions of each topic that exists (a missing topic has none). */
export async function topicRanges(
  admin: Admin,
  topics: string[],
): Promise<Map<string, PartitionRange[]>> {
  const existing = new Set(await admin.listTopics());
  const ranges = new Map<string, PartitionRange[]>();
  for (const topic of topics) {
    if (!existing.has(topic)) {
      ranges.set(topic, []);
      continue;
    }
    const offsets = await admin.fetchTopicOffsets(topic);
    ranges.set(
      topic,
      offsets
        .map((o) => ({ partition: o.partition, low: BigInt(o.low), high: BigInt(o.high) }))
        .sort((a, b) => a.partition - b.partition),
    );
  }
  return ranges;
}

/** A group's committed offsets (the next offset it will read), keyed `topic:partition`. */
export async function committedOffsets(
  admin: Admin,
  groupId: string,
  topics: string[],
): Promise<Map<string, bigint>> {
  const existing = new Set(await admin.listTopics());
  const present = topics.filter((t) => existing.has(t));
  const committed = new Map<string, bigint>();
  if (present.length === 0) return committed;
  for (const { topic, partitions } of await admin.fetchOffsets({ groupId, topics: present }))
    for (const { partition, offset } of partitions)
      if (Number(offset) >= 0) committed.set(`${topic}:${partition}`, BigInt(offset));
  return committed;
}

/**
 * Streams a topic's messages from each partition's low watermark up to `ranges`' high ones,
 * batch by batch and in offset order within a partition, awaiting `onBatch` before the next
 * fetch of that partition: memory holds a fetch, whatever the topic's length. kafkajs has no
 * manual assignment, so it joins a throwaway group that never commits.
 */
export async function streamTopic(
  kafka: Kafka,
  topic: string,
  ranges: PartitionRange[],
  onBatch: (partition: number, messages: TopicMessage[]) => Promise<void>,
): Promise<void> {
  const pending = new Map<number, bigint>();
  for (const r of ranges) if (r.high > r.low) pending.set(r.partition, r.high);
  if (pending.size === 0) return;
  const consumer = kafka.consumer({
    groupId: `invariant-checker-${randomUUID()}`,
    allowAutoTopicCreation: false,
    maxWaitTimeInMs: 100,
    maxBytesPerPartition: 1_048_576,
  });
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          autoCommit: false,
          eachBatch: async ({ batch }) => {
            const high = pending.get(batch.partition);
            if (high === undefined) return;
            try {
              const messages = batch.messages
                .filter((m) => BigInt(m.offset) < high)
                .map((m) => toTopicMessage(batch.partition, m));
              if (messages.length > 0) await onBatch(batch.partition, messages);
            } catch (error) {
              reject(error as Error);
              return;
            }
            if (batch.messages.some((m) => BigInt(m.offset) + 1n >= high))
              pending.delete(batch.partition);
            if (pending.size === 0) resolve();
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
}

function toTopicMessage(partition: number, m: KafkaMessage): TopicMessage {
  return {
    partition,
    offset: BigInt(m.offset),
    timestamp: new Date(Number(m.timestamp)),
    headers: eventIdentity(m.value, readHeaders(m.headers)),
  };
}

const partitioner = Partitioners.DefaultPartitioner();

/** The partition the relay's producer (kafkajs' default partitioner) puts a key in. */
export function partitionOfKey(topic: string, key: string, partitions: number): number {
  const partitionMetadata = Array.from({ length: partitions }, (_, partitionId) => ({
    partitionId,
    leader: 0,
    partitionErrorCode: 0,
    replicas: [0],
    isr: [0],
  }));
  return partitioner({ topic, partitionMetadata, message: { key, value: null } });
}
