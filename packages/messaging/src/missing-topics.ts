import { Kafka } from 'kafkajs';

/**
 * The topics among `topics` that the cluster does not list (missing, or not visible to this
 * client's principal): one metadata request, through a short-lived admin client.
 */
export async function missingTopics(kafka: Kafka, topics: readonly string[]): Promise<string[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    return [...new Set(topics)].filter((t) => !existing.has(t));
  } finally {
    await admin.disconnect();
  }
}
