import { ITopicConfig, Kafka } from 'kafkajs';
import { InboxError } from '../inbox.errors';
import { InboxTopicCreation } from '../inbox.options';
import { deniedTopics } from '../metrics/consumer-fault';

/** The topics a consumer works with: those it reads, and its own retry and dead-letter topics. */
export interface ConsumerTopics {
  sources: string[];
  retryTopic: string;
  deadLetterTopic: string;
}

/**
 * Checks that the topics exist, creating missing ones where the broker allows it and
 * `creation.enabled` is not false. The retry and dead-letter topics get the largest partition
 * count among the sources (`creation.partitions` overrides it), so a replay or a dead letter
 * keeps the spread of what it came from. A missing topic that cannot be created stops the start
 * with a message naming it rather than a consumer that silently reads nothing. A topic the
 * ACLs deny rejects with TOPIC_AUTHORIZATION_FAILED (not an InboxError): the start waits.
 */
export async function ensureTopics(
  kafka: Kafka,
  topics: ConsumerTopics,
  creation: InboxTopicCreation,
): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const all = [...new Set([...topics.sources, topics.retryTopic, topics.deadLetterTopic])];
    const missing = all.filter((t) => !existing.has(t));
    if (missing.length === 0) return;
    // A topic the ACLs hide from this principal is not listed either: that is a grant to
    // make while the consumer waits (an operational fault), not a setup mistake to exit for.
    const denied = await deniedTopics(kafka, missing);
    if (denied.length > 0) {
      throw Object.assign(
        new Error(`Kafka denies this principal the topics ${denied.join(', ')}`),
        { type: 'TOPIC_AUTHORIZATION_FAILED' },
      );
    }
    if (creation.enabled === false) {
      throw new InboxError(
        'TOPIC_MISSING',
        `topics ${missing.join(', ')} do not exist (topic creation is off: create them first)`,
      );
    }
    const present = topics.sources.filter((t) => existing.has(t));
    const metadata =
      present.length > 0 ? await admin.fetchTopicMetadata({ topics: present }) : undefined;
    const partitions = new Map(metadata?.topics.map((t) => [t.name, t.partitions.length]));
    try {
      await admin.createTopics({
        topics: topicsToCreate(missing, topics, partitions, creation),
        waitForLeaders: true,
      });
    } catch (error) {
      throw new InboxError(
        'TOPIC_MISSING',
        `topics ${missing.join(', ')} do not exist and could not be created`,
        { cause: error },
      );
    }
  } finally {
    await admin.disconnect();
  }
}

/**
 * How each missing topic is created: `creation`'s partitions, replication factor and configs;
 * without a partition count, the retry and dead-letter topics take the largest one among the
 * sources in `sourcePartitions`, and a source takes the broker's default.
 */
export function topicsToCreate(
  missing: string[],
  topics: ConsumerTopics,
  sourcePartitions: ReadonlyMap<string, number>,
  creation: InboxTopicCreation,
): ITopicConfig[] {
  const widest = Math.max(1, ...sourcePartitions.values());
  const own = new Set([topics.retryTopic, topics.deadLetterTopic]);
  return missing.map((topic) => ({
    topic,
    numPartitions: creation.partitions ?? (own.has(topic) ? widest : -1),
    replicationFactor: creation.replicationFactor ?? -1,
    ...(creation.configs && {
      configEntries: Object.entries(creation.configs).map(([name, value]) => ({ name, value })),
    }),
  }));
}
