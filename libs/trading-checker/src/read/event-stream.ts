import { PartitionRange, streamTopic, TopicMessage } from '@outbox-inbox/messaging';
import { Admin, Kafka, Partitioners } from 'kafkajs';
import { eventIdentity } from './event-identity';

/** One message as the checker reads it: its position, time and headers. */
export interface EventMessage {
  partition: number;
  offset: bigint;
  timestamp: Date;
  /**
   * The message's headers, with the event's identity (type, key, aggregate and version) taken
   * from its envelope as the consumers take it (`eventIdentity`), headers or not.
   */
  headers: Record<string, string>;
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
 * A topic's messages up to `ranges`' high offsets, batch by batch (@outbox-inbox/messaging's
 * streamTopic), each with its event's identity.
 */
export async function streamEvents(
  kafka: Kafka,
  topic: string,
  ranges: PartitionRange[],
  onBatch: (partition: number, messages: EventMessage[]) => Promise<void>,
): Promise<void> {
  await streamTopic(
    kafka,
    topic,
    ranges,
    (partition, messages) => onBatch(partition, messages.map(eventMessage)),
    { groupPrefix: 'invariant-checker' },
  );
}

function eventMessage(m: TopicMessage): EventMessage {
  return {
    partition: m.partition,
    offset: BigInt(m.offset),
    timestamp: new Date(Number(m.timestamp)),
    headers: eventIdentity(m.value, m.headers),
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
