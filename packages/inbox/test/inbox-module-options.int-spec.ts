import { DynamicModule, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { mysqlDataSourceOptions } from '@outbox-inbox/database/mysql';
import {
  parcelEvent,
  parcelEventRegistry,
  toMessage,
  waitFor,
  testKafkaConfig,
} from '@outbox-inbox/test-kit';
import { Kafka, logLevel } from 'kafkajs';
import { DataSource } from 'typeorm';
import {
  InboxCounters,
  InboxModule,
  InboxModuleOptions,
  InboxReadPorts,
  InboxStatsSource,
  InboxTransport,
} from '../src';
import { InboxHttpModule } from '../src/http';
import { useInboxTestBed } from './fixtures/inbox-test-app';
import { TEST_BEHAVIOUR, TestBehaviour, TestConsumer } from './fixtures/test-consumer.controller';

/** The forms in which InboxModule takes its options, DataSource, Kafka client and routes. */
describe('InboxModule options', () => {
  const bed = useInboxTestBed('inbox_options');
  let app: INestApplication | undefined;

  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function inboxOptions(name: string, kafka?: Kafka): Promise<InboxModuleOptions> {
    const topic = await bed.env.createTopic(`inbox.opt.${name}`, 1);
    const deadLetterTopic = await bed.env.createTopic(`inbox.opt.${name}.dlq`, 1);
    const retryTopic = await bed.env.createTopic(`inbox.opt.${name}.retry`, 1);
    return {
      consumer: `opt-${name}`,
      kafka: kafka
        ? { client: kafka, maxWaitTimeMs: 100 }
        : testKafkaConfig({
            brokers: bed.env.infra.kafkaBrokers,
            clientId: `opt-${name}`,
            logLevel: logLevel.NOTHING,
            maxWaitTimeMs: 100,
          }),
      topics: [topic],
      deadLetterTopic,
      retryTopic,
      registry: parcelEventRegistry(),
      gapCheckIntervalMs: 0,
      pruneIntervalMs: 0,
    };
  }

  async function start(imports: DynamicModule[], listen = true): Promise<INestApplication> {
    @Module({
      imports,
      controllers: [TestConsumer],
      providers: [{ provide: TEST_BEHAVIOUR, useValue: new TestBehaviour() }],
    })
    class AppModule {}
    app = await NestFactory.create(AppModule, { logger: false, abortOnError: false });
    app.connectMicroservice({ strategy: app.get(InboxTransport) });
    await app.startAllMicroservices();
    if (listen) await app.listen(0, '127.0.0.1');
    else await app.init();
    return app;
  }

  /** Sends ParcelRegistered of `parcelId` twice; waits until the inbox of `consumer` took it once. */
  async function deliverTwice(topic: string, consumer: string, parcelId: string) {
    const message = toMessage(parcelEvent('registered', parcelId, 1));
    await bed.producer.send({ topic, messages: [message, message] });
    await waitFor(async () => {
      const [row] = (await bed.dataSource.query(
        'SELECT duplicate_count AS duplicates FROM t_inbox WHERE consumer = ? AND event_key = ?',
        [consumer, `ParcelRegistered:${parcelId}:1`],
      )) as Array<{ duplicates: number }>;
      return row !== undefined && Number(row.duplicates) === 1;
    });
    const effects = (await bed.dataSource.query(
      'SELECT COUNT(*) AS n FROM t_test_effect WHERE aggregate_id = ?',
      [parcelId],
    )) as Array<{ n: number }>;
    expect(Number(effects[0].n)).toBe(1);
  }

  it('takes its options from forRootAsync and its DataSource by TypeORM name', async () => {
    const options = await inboxOptions('async');
    await start([
      TypeOrmModule.forRoot({
        ...mysqlDataSourceOptions({ url: bed.databaseUrl, poolSize: 4 }),
        name: 'inbox',
      }),
      InboxModule.forRootAsync({ dataSource: 'inbox', useFactory: () => Promise.resolve(options) }),
    ]);
    await deliverTwice(options.topics[0], options.consumer, 'async-1');
  });

  it('takes its DataSource as an instance and consumes through a kafkajs client of the app', async () => {
    const client = new Kafka(
      testKafkaConfig({
        clientId: 'apps-own-client',
        brokers: bed.env.infra.kafkaBrokers,
        logLevel: logLevel.NOTHING,
      }),
    );
    const options = await inboxOptions('client', client);
    await start([InboxModule.forRoot({ ...options, dataSource: bed.dataSource })]);
    await deliverTwice(options.topics[0], options.consumer, 'client-1');
  });

  it('provides its read-only ports under their names, counting what the consumer did', async () => {
    const options = await inboxOptions('ports');
    const started = await start([InboxModule.forRoot({ ...options, dataSource: bed.dataSource })]);
    await deliverTwice(options.topics[0], options.consumer, 'ports-1');
    const counters = started.get<keyof InboxReadPorts, InboxCounters>('InboxCounters');
    // Counted just after the commit that deliverTwice saw.
    await waitFor(() => counters.outcomes.duplicate === 1);
    expect(counters.outcomes).toEqual(expect.objectContaining({ applied: 1, duplicate: 1 }));
    const source = started.get<keyof InboxReadPorts, InboxStatsSource>('InboxStatsSource');
    expect(source.groupMembership()).toEqual({ consumer: options.consumer, joined: true });
    expect((await source.stats()).inbox.applied).toBe(1);
  });

  it('fails the start with checkOnStart, naming the tables and the topic that are missing', async () => {
    const options = await inboxOptions('check');
    const missing = `${options.topics[0]}.absent`;
    const emptyDb = new DataSource(
      mysqlDataSourceOptions({ url: (await bed.env.createDatabase('inbox_unmigrated')).url }),
    );
    await emptyDb.initialize();
    try {
      const checked = (dataSource: DataSource, topics: string[]) =>
        InboxModule.forRoot({ ...options, topics, dataSource, checkOnStart: true });
      const failed = start([checked(emptyDb, [options.topics[0], missing])], false);
      await expect(failed).rejects.toThrow(
        `InboxModule start check failed for consumer opt-check: table t_inbox cannot be read ` +
          `(ER_NO_SUCH_TABLE: Table '${emptyDb.driver.database}.t_inbox' doesn't exist): run InboxMigrations; `,
      );
      await expect(failed).rejects.toThrow(
        /table t_inbox_prune cannot be read .*; topic .*\.absent does not exist: create it$/,
      );
      await app?.close();
      app = undefined;
      await start([checked(bed.dataSource, options.topics)]);
      await deliverTwice(options.topics[0], options.consumer, 'check-1');
    } finally {
      await emptyDb.destroy();
    }
  });

  it('refuses options without a registry from the async factory, at start', async () => {
    const { registry: _none, ...options } = await inboxOptions('noregistry');
    await expect(
      start(
        [
          InboxModule.forRootAsync({
            dataSource: bed.dataSource,
            useFactory: () => options as InboxModuleOptions,
          }),
        ],
        false,
      ),
    ).rejects.toThrow(/registry must be an EventRegistry/);
  });

  it('mounts the routes only with InboxHttpModule (404 without it)', async () => {
    const options = await inboxOptions('http');
    const off = await start([InboxModule.forRoot({ ...options, dataSource: bed.dataSource })]);
    expect((await fetch(`${await off.getUrl()}/inbox/stats`)).status).toBe(404);
    await off.close();
    app = undefined;
    const onOptions = await inboxOptions('http-on');
    const on = await start([
      InboxModule.forRoot({ ...onOptions, dataSource: bed.dataSource }),
      InboxHttpModule.register(),
    ]);
    expect((await fetch(`${await on.getUrl()}/inbox/stats`)).status).toBe(200);
  });
});
