import { EventHeader } from '@app/contracts';
import { DeadLetterHeader, RawTopicMessage, readWholeTopic } from '@app/inbox';
import { Kafka } from 'kafkajs';
import { DeadLetterView, TopicMessage } from './snapshot';

/** Every message of an event topic with its envelope fields (null where a header is missing). */
export async function readEventTopic(kafka: Kafka, topic: string): Promise<TopicMessage[]> {
  if (!(await topicExists(kafka, topic))) return [];
  const raw = await readWholeTopic(kafka, topic);
  return raw.map((m) => toTopicMessage(topic, m));
}

export function toTopicMessage(topic: string, m: RawTopicMessage): TopicMessage {
  const h = m.headers;
  const version = h[EventHeader.aggregateVersion];
  return {
    topic,
    partition: m.partition,
    offset: BigInt(m.offset),
    timestamp: new Date(Number(m.timestamp)),
    eventKey: h[EventHeader.eventKey] ?? null,
    eventType: h[EventHeader.eventType] ?? null,
    aggregateType: h[EventHeader.aggregateType] ?? null,
    aggregateId: h[EventHeader.aggregateId] ?? null,
    aggregateVersion: version === undefined ? null : Number(version),
    payload: payloadOf(m.value),
  };
}

function payloadOf(value: Buffer | null): Record<string, unknown> | null {
  if (!value) return null;
  try {
    const envelope = JSON.parse(value.toString('utf8')) as { payload?: unknown };
    return envelope.payload && typeof envelope.payload === 'object'
      ? (envelope.payload as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The dead-lettered messages of one consumer (a shared DLQ topic is filtered by consumer). */
export async function readDeadLetters(
  kafka: Kafka,
  topic: string,
  consumer: string,
): Promise<DeadLetterView[]> {
  if (!(await topicExists(kafka, topic))) return [];
  const raw = await readWholeTopic(kafka, topic);
  return raw
    .filter((m) => (m.headers[DeadLetterHeader.consumer] ?? consumer) === consumer)
    .map((m) => ({
      offset: m.offset,
      eventKey: m.headers[EventHeader.eventKey] ?? null,
      sourceTopic: m.headers[DeadLetterHeader.sourceTopic] ?? '',
      sourcePartition: Number(m.headers[DeadLetterHeader.sourcePartition] ?? -1),
      sourceOffset: m.headers[DeadLetterHeader.sourceOffset] ?? '',
      errorCode: m.headers[DeadLetterHeader.errorCode] ?? '',
    }));
}

/** The group's committed offsets (the next offset it will read), keyed `topic:partition`. */
export async function readCommittedOffsets(
  kafka: Kafka,
  groupId: string,
  topics: string[],
): Promise<Record<string, bigint>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const present = topics.filter((t) => existing.has(t));
    if (present.length === 0) return {};
    const offsets = await admin.fetchOffsets({ groupId, topics: present });
    const committed: Record<string, bigint> = {};
    for (const { topic, partitions } of offsets) {
      for (const { partition, offset } of partitions) {
        if (Number(offset) >= 0) committed[`${topic}:${partition}`] = BigInt(offset);
      }
    }
    return committed;
  } finally {
    await admin.disconnect();
  }
}

async function topicExists(kafka: Kafka, topic: string): Promise<boolean> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return (await admin.listTopics()).includes(topic);
  } finally {
    await admin.disconnect();
  }
}
