import { Infrastructure } from '@app/test-kit';
import { Admin, Kafka, logLevel } from 'kafkajs';

/** Runs `work` with a connected kafkajs admin of the resolved broker, disconnected after. */
export async function withBenchAdmin<T>(
  infra: Infrastructure,
  work: (admin: Admin) => Promise<T>,
): Promise<T> {
  const admin = new Kafka({
    clientId: 'bench',
    brokers: infra.kafkaBrokers,
    logLevel: logLevel.NOTHING,
  }).admin();
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
