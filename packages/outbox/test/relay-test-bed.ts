import type { SqlEngine } from '@outbox-inbox/database';
import {
  createPostgresTestDatabase,
  KAFKA_STARTUP_MS,
  openOutboxDatabase,
  startTestEnvironment,
  TestDatabase,
  TestEnvironment,
  testKafkaConfig,
} from '@outbox-inbox/test-kit';
import { logLevel } from 'kafkajs';
import { DataSource } from 'typeorm';
import { createOutboxRelay, OutboxRelay, OutboxRelayConfig } from '../src';
import { CapturingLogger, FAST_RELAY } from './outbox-test-kit';

/** What the relay's integration test files share: the broker, a database per test, relays. */
export interface RelayTestBed {
  env: TestEnvironment;
  /** The running test's own outbox database, and its URL. */
  dataSource: DataSource;
  databaseUrl: string;
  /** A relay with FAST_RELAY timing that sends every row to `topic`; `extra` overrides. */
  relay(topic: string, extra?: Partial<OutboxRelayConfig>): OutboxRelay;
}

/**
 * Registers the file's hooks: starts the test environment once, creates a fresh outbox
 * database `name` (pool of `poolSize`) before each test and closes it after; stops the
 * environment at the end. The returned object is filled in before each test runs. `kafka`
 * asks for a Kafka of the file's own (see startTestEnvironment); `engine` puts the outbox
 * database on MySQL/MariaDB or PostgreSQL.
 */
export function useRelayTestBed(
  name: string,
  clientId: string,
  poolSize = 10,
  kafka: { kafkaFaults?: boolean; kafkaMockOnly?: boolean } = {},
  engine: SqlEngine = 'mysql',
): RelayTestBed {
  let postgres: TestDatabase | undefined;
  const bed = {
    relay: (topic, extra = {}) =>
      createOutboxRelay({
        ...FAST_RELAY,
        dataSource: bed.dataSource,
        kafka: testKafkaConfig({
          brokers: bed.env.infra.kafkaBrokers,
          clientId,
          logLevel: logLevel.NOTHING,
        }),
        topicFor: () => topic,
        logger: new CapturingLogger(),
        ...extra,
      }),
  } as RelayTestBed;
  beforeAll(async () => {
    bed.env = await startTestEnvironment(kafka);
  }, KAFKA_STARTUP_MS);
  beforeEach(async () => {
    postgres = engine === 'postgres' ? await createPostgresTestDatabase(name) : undefined;
    const database = postgres ?? (await bed.env.createDatabase(name));
    bed.databaseUrl = database.url;
    bed.dataSource = await openOutboxDatabase(database.url, poolSize);
  });
  afterEach(async () => {
    await bed.dataSource?.destroy();
    await postgres?.drop();
  });
  afterAll(async () => {
    await bed.env?.stop();
  });
  return bed;
}
