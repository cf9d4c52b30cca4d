import { Kafka, KafkaConfig, logLevel } from 'kafkajs';

/**
 * Creates the topics that do not exist yet (name → partitions), with the cluster's default
 * replication, and waits until each partition has a leader: a consumer that subscribes or a
 * producer that sends right after finds them served. `security`: the admin's TLS and SASL on
 * a secured cluster.
 */
export async function createTopics(
  brokers: string[],
  topics: Record<string, number>,
  security: Pick<KafkaConfig, 'ssl' | 'sasl'> = {},
): Promise<void> {
  const admin = new Kafka({
    clientId: 'create-topics',
    brokers,
    ...security,
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = Object.entries(topics).filter(([topic]) => !existing.has(topic));
    if (missing.length === 0) return;
    await admin.createTopics({
      topics: missing.map(([topic, numPartitions]) => ({ topic, numPartitions })),
      waitForLeaders: true,
    });
  } finally {
    await admin.disconnect();
  }
}
