import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { Infrastructure, resolveInfrastructure } from './infrastructure';
import { testKafkaConfig } from './kafka';
import { createTestDatabase, TestDatabase } from './test-database';

/** Everything one integration test file needs: its own databases and topics. */
export interface TestEnvironment {
  infra: Infrastructure;
  /** A kafkajs client for the test's own producing and consuming (the admin on a secured cluster). */
  kafka: Kafka;
  /** A fresh, empty database (new name on every call). */
  createDatabase(label: string): Promise<TestDatabase>;
  /**
   * Creates a topic named `base` plus a random suffix, and returns that name: test files share
   * an Apache Kafka cluster, so a fixed name would be another file's topic too. Group ids
   * derived from the topic's name are then the file's own as well.
   */
  createTopic(base: string, partitions: number): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Resolves the infrastructure (see resolveInfrastructure) and tracks what the file creates,
 * dropping it in `stop()`. Call in `beforeAll`, stop in `afterAll`.
 */
export async function startTestEnvironment(
  options: { kafkaFaults?: boolean; kafkaMockOnly?: boolean } = {},
): Promise<TestEnvironment> {
  const infra = await resolveInfrastructure(options);
  const kafka = new Kafka(
    testKafkaConfig(
      {
        clientId: 'test',
        brokers: infra.kafkaBrokers,
        logLevel: logLevel.NOTHING,
        retry: { retries: 5, initialRetryTime: 100 },
      },
      infra.kafka,
    ),
  );
  const databases: TestDatabase[] = [];
  return {
    infra,
    kafka,
    async createDatabase(label) {
      const database = await createTestDatabase(infra.mysqlUrl, label);
      databases.push(database);
      return database;
    },
    async createTopic(base, partitions) {
      const topic = `${base}.${randomBytes(4).toString('hex')}`;
      await infra.kafka.createTopics({ [topic]: partitions });
      return topic;
    },
    async stop() {
      await Promise.allSettled(databases.map((d) => d.drop()));
      await infra.stop();
    },
  };
}
