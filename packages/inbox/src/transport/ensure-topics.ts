import { Kafka } from 'kafkajs';
import { InboxError } from '../inbox.errors';

/**
 * Checks that the topics exist, creating missing ones where the broker allows it. Some brokers
 * (and the test mock) cannot create topics, so a missing topic that cannot be created stops
 * the start with a message naming it rather than a consumer that silently reads nothing.
 */
export async function ensureTopics(kafka: Kafka, topics: string[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = [...new Set(topics)].filter((t) => !existing.has(t));
    if (missing.length === 0) return;
    try {
      await admin.createTopics({
        topics: missing.map((topic) => ({ topic })),
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
