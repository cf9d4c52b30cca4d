import { randomUUID } from 'node:crypto';
import { Admin, Kafka, KafkaMessage } from 'kafkajs';
import { readHeaders } from './kafka-headers';

/** One message of a topic, as it was read. */
export interface TopicMessage {
  partition: number;
  offset: string;
  /** The message's timestamp, milliseconds since the epoch, as a string (as kafkajs gives it). */
  timestamp: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, string>;
}

/** Where a partition's retained messages begin and end (high = the next offset). */
export interface PartitionRange {
  partition: number;
  low: bigint;
  high: bigint;
}

/** How streamTopic reads. */
export interface StreamTopicOptions {
  /** The throwaway group's name begins with this (default `topic-reader`). */
  groupPrefix?: string;
  /** Give up after this long, in ms (default: never). */
  timeoutMs?: number;
}

/** The partitions of each topic that exists, by partition (a missing topic has none). */
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
  options: StreamTopicOptions = {},
): Promise<void> {
  const pending = new Map<number, bigint>();
  for (const r of ranges) if (r.high > r.low) pending.set(r.partition, r.high);
  if (pending.size === 0) return;
  const consumer = kafka.consumer({
    groupId: `${options.groupPrefix ?? 'topic-reader'}-${randomUUID()}`,
    allowAutoTopicCreation: false,
    // Short fetch polls: kafkajs waits for the poll in flight before it can disconnect.
    maxWaitTimeInMs: 100,
    maxBytesPerPartition: 1_048_576,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      if (options.timeoutMs !== undefined) {
        timer = setTimeout(
          () => reject(new Error(`reading ${topic} timed out`)),
          options.timeoutMs,
        );
      }
      consumer
        .run({
          autoCommit: false,
          eachBatch: async ({ batch }) => {
            const high = pending.get(batch.partition);
            if (high === undefined) return;
            try {
              const messages = batch.messages
                .filter((m) => BigInt(m.offset) < high)
                .map((m) => topicMessage(batch.partition, m));
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
    clearTimeout(timer);
    await consumer.disconnect();
  }
}

/**
 * Reads a whole topic, up to the end it had when the read began, in partition and offset
 * order, within 30 s unless `options` say otherwise. Memory holds the whole topic: for a long
 * one, streamTopic.
 */
export async function readWholeTopic(
  kafka: Kafka,
  topic: string,
  options: StreamTopicOptions = {},
): Promise<TopicMessage[]> {
  const admin = kafka.admin();
  await admin.connect();
  let ranges: PartitionRange[];
  try {
    ranges = (await admin.fetchTopicOffsets(topic)).map((o) => ({
      partition: o.partition,
      low: BigInt(o.low),
      high: BigInt(o.high),
    }));
  } finally {
    await admin.disconnect();
  }
  const messages: TopicMessage[] = [];
  await streamTopic(
    kafka,
    topic,
    ranges,
    async (_partition, batch) => {
      messages.push(...batch);
    },
    { timeoutMs: 30_000, ...options },
  );
  return messages.sort(
    (a, b) => a.partition - b.partition || Number(BigInt(a.offset) - BigInt(b.offset)),
  );
}

function topicMessage(partition: number, m: KafkaMessage): TopicMessage {
  return {
    partition,
    offset: m.offset,
    timestamp: m.timestamp,
    key: m.key,
    value: m.value,
    headers: readHeaders(m.headers),
  };
}
