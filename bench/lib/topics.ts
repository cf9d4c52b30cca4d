import { kafkaSecurityFromEnv } from '@app/config';
import { Infrastructure, testKafkaConfig } from '@outbox-inbox/test-kit';
import { Admin, ConfigResourceTypes, Kafka, logLevel } from 'kafkajs';

/** Runs `work` with a connected kafkajs admin of the resolved broker, disconnected after. */
export async function withBenchAdmin<T>(
  infra: Infrastructure,
  work: (admin: Admin) => Promise<T>,
): Promise<T> {
  const admin = new Kafka(
    testKafkaConfig({
      clientId: 'bench',
      brokers: infra.kafkaBrokers,
      ...kafkaSecurityFromEnv(),
      logLevel: logLevel.NOTHING,
    }),
  ).admin();
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.disconnect();
  }
}

/** Creates the named topics on the resolved broker (the mock, or a real cluster). */
export async function createNamedTopics(
  infra: Infrastructure,
  topics: Record<string, number>,
): Promise<void> {
  await infra.kafka.createTopics(topics);
}

/** How a topic is replicated: what a produce with acks=all (-1) waits for. */
export interface TopicReplication {
  /** Replicas of its least replicated partition. */
  replicas: number;
  /** The topic's min.insync.replicas; undefined where the broker does not answer DescribeConfigs (the mock). */
  minInsyncReplicas?: number;
}

/** Reads `topic`'s replicas from the metadata and its min.insync.replicas from its configs. */
export async function topicReplication(
  infra: Infrastructure,
  topic: string,
): Promise<TopicReplication> {
  return withBenchAdmin(infra, async (admin) => {
    const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
    const replicas = Math.min(...metadata.topics[0].partitions.map((p) => p.replicas.length));
    try {
      const configs = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [
          { type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['min.insync.replicas'] },
        ],
      });
      const entry = configs.resources[0].configEntries.find(
        (e) => e.configName === 'min.insync.replicas',
      );
      return { replicas, minInsyncReplicas: entry ? Number(entry.configValue) : undefined };
    } catch {
      return { replicas };
    }
  });
}
