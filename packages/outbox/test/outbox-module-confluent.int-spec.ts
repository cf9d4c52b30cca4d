import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { mysqlDataSourceOptions } from '@outbox-inbox/database/mysql';
import {
  parcelRegistered,
  ParcelRegisteredV1,
  startTestEnvironment,
  TestEnvironment,
  waitFor,
  testKafkaConfig,
} from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { OutboxMigrations, OutboxModule, OutboxRelay, OutboxWriter } from '../src';
import { confluentOutboxPublisher } from '../src/confluent';
import { consumeUntil } from './outbox-test-kit';

/** What KAFKA_CLIENT=confluent gives a service: OutboxModule's relay publishing with librdkafka. */
describe('OutboxModule with createPublisher: confluentOutboxPublisher', () => {
  let env: TestEnvironment;
  let app: INestApplication;
  let topic: string;

  beforeAll(async () => {
    env = await startTestEnvironment();
    topic = await env.createTopic('outbox.module.confluent', 3);
    const database = await env.createDatabase('outbox_module_confluent');
    const moduleRef = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot(
          mysqlDataSourceOptions({ url: database.url, migrations: OutboxMigrations }),
        ),
        OutboxModule.forRoot({
          kafka: testKafkaConfig({
            brokers: env.infra.kafkaBrokers,
            clientId: 'module-confluent',
            logLevel: 0,
          }),
          createPublisher: confluentOutboxPublisher,
          topicFor: () => topic,
        }),
      ],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.get(DataSource).runMigrations();
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    await env.stop();
  });

  it("publishes each aggregate's events once, in version order", async () => {
    const dataSource = app.get(DataSource);
    const writer = app.get(OutboxWriter);
    for (let version = 1; version <= 3; version++) {
      for (const aggregateId of ['conf-a', 'conf-b']) {
        await dataSource.transaction((m) =>
          writer.add(m, ParcelRegisteredV1, {
            aggregateId,
            aggregateVersion: version,
            payload: parcelRegistered(aggregateId),
          }),
        );
      }
    }
    await waitFor(() => app.get(OutboxRelay).counts().published === 6);
    const messages = await consumeUntil(env.kafka, topic, (m) => m.length >= 6);
    const keysOf = (id: string) =>
      messages.map((m) => m.eventKey).filter((key) => key.includes(`:${id}:`));
    expect(keysOf('conf-a')).toEqual([1, 2, 3].map((v) => `ParcelRegistered:conf-a:${v}`));
    expect(keysOf('conf-b')).toEqual([1, 2, 3].map((v) => `ParcelRegistered:conf-b:${v}`));
  });
});
