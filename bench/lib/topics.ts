import { Infrastructure } from '@app/testing';
import { Kafka, logLevel } from 'kafkajs';

/** Creates the named topics on the resolved broker (the mock, or a real cluster). */
export async function createNamedTopics(
  infra: Infrastructure,
  topics: Record<string, number>,
): Promise<void> {
  if (infra.kafkaMock) {
    for (const [topic, partitions] of Object.entries(topics)) {
      await infra.kafkaMock.createTopic(topic, partitions);
    }
    return;
  }
  const admin = new Kafka({
    clientId: 'bench',
    brokers: infra.kafkaBrokers,
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    await admin.createTopics({
      topics: Object.entries(topics).map(([topic, numPartitions]) => ({ topic, numPartitions })),
      waitForLeaders: true,
    });
  } finally {
    await admin.disconnect();
  }
}
