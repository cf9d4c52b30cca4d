import { TEST_OPS_API_TOKEN } from '@outbox-inbox/test-kit';
import { createServiceUser } from '@app/trading-test-kit';
import { openMysqlDataSource } from '@outbox-inbox/database/mysql';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { serviceConfig } from '@app/config';
import { serviceRoot } from '@app/service-bootstrap';
import { envelopeHeaders, EventEnvelope } from '@outbox-inbox/messaging';
import { Kafka, Message } from 'kafkajs';
import { DataSource } from 'typeorm';
import { AccountingServiceConfig } from '../src/accounting-service.config';
import { AccountingServiceModule } from '../src/accounting-service.module';
import { configureAccountingService } from '../src/accounting-service.setup';
import { AccountingMigrations } from '../src/migrations';

/** Where one test's accounting-service reads from and writes to. */
export interface AccountingTestAppOptions {
  /** The database as its owner: the migrations run as it, the service as a user of its own. */
  databaseUrl: string;
  brokers: string[];
  topicPrefix: string;
  consumer: string;
  deadLetterTopic: string;
}

/** A running accounting-service: the production module and wiring, on a free port. */
export interface AccountingTestApp {
  app: INestApplication;
  url: string;
  dataSource: DataSource;
  close(): Promise<void>;
}

/**
 * Starts the service as a deployment does: migrations first, as the database's owner (`main.js
 * migrate`), then the service as its own user with deploy/mysql/service-users.sql's grants
 * (dropped on close), consumers, then HTTP.
 */
export async function startAccountingApp(
  options: AccountingTestAppOptions,
): Promise<AccountingTestApp> {
  const owner = await openMysqlDataSource({
    url: options.databaseUrl,
    migrations: AccountingMigrations,
    poolSize: 1,
  });
  try {
    await owner.runMigrations({ transaction: 'each' });
  } finally {
    await owner.destroy();
  }
  const user = await createServiceUser(options.databaseUrl, 'accounting_service');
  const config = await serviceConfig(AccountingServiceConfig, {
    DATABASE_URL: user.url,
    KAFKA_BROKERS: options.brokers.join(','),
    TOPIC_PREFIX: options.topicPrefix,
    LOG_LEVEL: 'error',
    OPS_API_TOKEN: TEST_OPS_API_TOKEN,
  });
  const app = await NestFactory.create(
    serviceRoot(
      config,
      AccountingServiceModule.forRoot({
        consumer: options.consumer,
        deadLetterTopic: options.deadLetterTopic,
        // A restarted consumer waits for the group to drop its predecessor: keep that short.
        groupTiming: {
          sessionTimeoutMs: 6_000,
          heartbeatIntervalMs: 500,
          rebalanceTimeoutMs: 6_000,
        },
      }),
    ),
    { logger: ['error'] },
  );
  const close = async () => {
    await app.close();
    await user.drop();
  };
  try {
    const dataSource = app.get(DataSource);
    configureAccountingService(app);
    await app.startAllMicroservices();
    await app.listen(0, '127.0.0.1');
    return { app, url: await app.getUrl(), dataSource, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** An envelope as the outbox relay publishes it: key = aggregate id, envelope headers. */
export function toMessage(envelope: EventEnvelope): Message {
  return {
    key: envelope.aggregateId,
    value: JSON.stringify(envelope),
    headers: envelopeHeaders(envelope),
  };
}

/** True when `groupId` has committed every message written to `topics`. */
export async function consumedEverything(
  kafka: Kafka,
  groupId: string,
  topics: string[],
): Promise<boolean> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const committed = await admin.fetchOffsets({ groupId, topics });
    for (const topic of topics) {
      const ends = await admin.fetchTopicOffsets(topic);
      const mine = committed.find((c) => c.topic === topic)?.partitions ?? [];
      for (const end of ends) {
        const offset = Number(mine.find((p) => p.partition === end.partition)?.offset ?? -1);
        if (Number(end.high) > 0 && offset < Number(end.high)) return false;
      }
    }
    return true;
  } finally {
    await admin.disconnect();
  }
}
