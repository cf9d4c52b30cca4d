import { DynamicModule, Global, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { mysqlDataSourceOptions } from '@outbox-inbox/database/mysql';
import {
  openOutboxDatabase,
  ParcelShippedV1,
  startTestEnvironment,
  TEST_OPS_API_TOKEN,
  TestEnvironment,
  waitFor,
  testKafkaConfig,
} from '@outbox-inbox/test-kit';
import { Kafka, logLevel } from 'kafkajs';
import { DataSource } from 'typeorm';
import {
  OutboxMigrations,
  OutboxModule,
  OutboxModuleOptions,
  OutboxReadPorts,
  OutboxRelay,
  OutboxRelayStats,
  OutboxStatsSource,
  OutboxWriter,
} from '../src';
import { OutboxHttpModule } from '../src/http';
import { AppTokenGuardModule } from './app-token-guard';
import { consumeUntil } from './outbox-test-kit';

const PARCELS_DB = Symbol('PARCELS_DB');

/** Every form in which OutboxModule takes its DataSource and its Kafka client; its routes. */
describe('OutboxModule options', () => {
  let env: TestEnvironment;
  let outboxDb: DataSource;
  let outboxDbUrl: string;
  let app: INestApplication | undefined;

  beforeAll(async () => {
    env = await startTestEnvironment();
    outboxDbUrl = (await env.createDatabase('outbox_options')).url;
    outboxDb = await openOutboxDatabase(outboxDbUrl, 4);
  });

  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  afterAll(async () => {
    await outboxDb?.destroy();
    await env.stop();
  });

  const kafkaSettings = () =>
    testKafkaConfig({
      brokers: env.infra.kafkaBrokers,
      clientId: 'options-test',
      logLevel: logLevel.NOTHING,
    });

  async function options(base: string): Promise<OutboxModuleOptions & { topic: string }> {
    const topic = await env.createTopic(base, 1);
    return { kafka: kafkaSettings(), topicFor: () => topic, topic };
  }

  async function start(imports: Array<DynamicModule | typeof Object>): Promise<INestApplication> {
    @Module({ imports: imports as DynamicModule[] })
    class AppModule {}
    app = await NestFactory.create(AppModule, { logger: false, abortOnError: false });
    await app.listen(0, '127.0.0.1');
    return app;
  }

  /** Writes one ParcelShipped in `dataSource` through the app's writer; returns its key. */
  async function writeParcel(started: INestApplication, dataSource: DataSource, id: string) {
    const writer = started.get(OutboxWriter);
    const envelope = await dataSource.transaction((manager) =>
      writer.add(manager, ParcelShippedV1, {
        aggregateId: id,
        aggregateVersion: 1,
        payload: {
          parcelId: id,
          carrier: 'c-1',
          weightGrams: 1_200,
          declaredValue: 1_000,
          currency: 'EUR',
          service: 'STANDARD',
          shippedAt: '2026-12-01T10:00:00.000Z',
        },
      }),
    );
    return envelope.eventKey;
  }

  /** The event keys on `topic`, read back by a consumer of the test's own. */
  async function published(topic: string): Promise<string[]> {
    const messages = await consumeUntil(env.kafka, topic, (m) => m.length >= 1);
    return messages.map((m) => m.eventKey);
  }

  /** Waits until the app's relay has published `key` from `dataSource` (its row SENT). */
  async function relayed(started: INestApplication, dataSource: DataSource, key: string) {
    await waitFor(async () => {
      const rows = (await dataSource.query('SELECT status FROM t_outbox WHERE event_key = ?', [
        key,
      ])) as Array<{ status: string }>;
      return rows[0]?.status === 'SENT' && started.get(OutboxRelay).counts().published >= 1;
    });
  }

  it('takes its DataSource as an instance, with no TypeOrmModule in the app', async () => {
    const { topic, ...rest } = await options('outbox.opt.instance');
    const started = await start([OutboxModule.forRoot({ ...rest, dataSource: outboxDb })]);
    const key = await writeParcel(started, outboxDb, 'inst-1');
    await relayed(started, outboxDb, key);
    expect(await published(topic)).toEqual([key]);
  });

  it('provides its read-only ports under their names, and a null relay port where the relay is off', async () => {
    const { topic: _topic, ...rest } = await options('outbox.opt.ports');
    const started = await start([OutboxModule.forRoot({ ...rest, dataSource: outboxDb })]);
    await relayed(started, outboxDb, await writeParcel(started, outboxDb, 'ports-1'));
    const relay = started.get<keyof OutboxReadPorts, OutboxRelayStats>('OutboxRelayStats');
    expect(relay.counts().published).toBeGreaterThanOrEqual(1);
    expect(relay.heartbeat().running).toBe(true);
    const source = started.get<keyof OutboxReadPorts, OutboxStatsSource>('OutboxStatsSource');
    expect((await source.stats()).relay?.published).toBeGreaterThanOrEqual(1);
    await started.close();
    const off = await start([
      OutboxModule.forRoot({ ...rest, dataSource: outboxDb, relay: { enabled: false } }),
    ]);
    expect(off.get('OutboxRelayStats')).toBeNull();
    expect(
      (await off.get<keyof OutboxReadPorts, OutboxStatsSource>('OutboxStatsSource').stats()).relay,
    ).toBeUndefined();
  });

  it('takes its DataSource by TypeORM name, beside a default DataSource that has no t_outbox', async () => {
    const otherDb = await env.createDatabase('outbox_options_other');
    const { topic: _topic, ...rest } = await options('outbox.opt.named');
    const started = await start([
      TypeOrmModule.forRoot(mysqlDataSourceOptions({ url: otherDb.url })),
      TypeOrmModule.forRoot({
        ...mysqlDataSourceOptions({ url: outboxDbUrl, migrations: OutboxMigrations }),
        name: 'outbox',
      }),
      OutboxModule.forRoot({ ...rest, dataSource: 'outbox' }),
    ]);
    const key = await writeParcel(started, outboxDb, 'named-1');
    await relayed(started, outboxDb, key);
  });

  it('takes its DataSource by injection token, and its options from forRootAsync', async () => {
    @Global()
    @Module({
      providers: [{ provide: PARCELS_DB, useFactory: () => openOutboxDatabase(outboxDbUrl, 4) }],
      exports: [PARCELS_DB],
    })
    class ParcelsDbModule {}
    const { topic: _topic, ...rest } = await options('outbox.opt.token');
    const started = await start([
      ParcelsDbModule as unknown as DynamicModule,
      OutboxModule.forRootAsync({
        dataSource: PARCELS_DB,
        useFactory: () => Promise.resolve(rest),
      }),
    ]);
    const parcelsDb = started.get<DataSource>(PARCELS_DB);
    try {
      const key = await writeParcel(started, parcelsDb, 'token-1');
      await relayed(started, parcelsDb, key);
    } finally {
      await started.close();
      app = undefined;
      await parcelsDb.destroy();
    }
  });

  it('publishes through a kafkajs client of the application', async () => {
    const { topic, topicFor } = await options('outbox.opt.client');
    const client = new Kafka({ ...kafkaSettings(), clientId: 'apps-own-client' });
    const started = await start([
      OutboxModule.forRoot({ kafka: { client }, topicFor, dataSource: outboxDb }),
    ]);
    const key = await writeParcel(started, outboxDb, 'client-1');
    await relayed(started, outboxDb, key);
    expect(await published(topic)).toEqual([key]);
  });

  it('runs a writer-only process (relay off) with no Kafka settings at all: it writes rows', async () => {
    const started = await start([
      OutboxModule.forRoot({
        topicFor: () => 'never.used',
        relay: { enabled: false },
        dataSource: outboxDb,
      }),
    ]);
    const key = await writeParcel(started, outboxDb, 'writer-only-1');
    expect(await outboxDb.query('SELECT status FROM t_outbox WHERE event_key = ?', [key])).toEqual([
      { status: 'NEW' },
    ]);
    expect(started.get<keyof OutboxReadPorts, null>('OutboxRelayStats')).toBeNull();
  });

  it('fails the start with checkOnStart, naming a missing table and a missing topic', async () => {
    const emptyDb = new DataSource(
      mysqlDataSourceOptions({ url: (await env.createDatabase('outbox_unmigrated')).url }),
    );
    await emptyDb.initialize();
    try {
      const { topic } = await options('outbox.opt.check');
      const topicFor = (type: string) => (type === 'Parcel' ? topic : `${topic}.${type}`);
      const checked = (dataSource: DataSource) =>
        OutboxModule.forRoot({
          kafka: kafkaSettings(),
          topicFor,
          dataSource,
          checkOnStart: { aggregateTypes: ['Parcel', 'Crate'] },
        });
      await expect(start([checked(emptyDb)])).rejects.toThrow(
        'OutboxModule start check failed: table t_outbox cannot be read (ER_NO_SUCH_TABLE: ' +
          `Table '${emptyDb.driver.database}.t_outbox' doesn't exist): run OutboxMigrations; ` +
          `topic ${topic}.Crate (aggregate type Crate) does not exist: create it`,
      );
      await env.infra.kafka.createTopics({ [`${topic}.Crate`]: 1 });
      const started = await start([checked(outboxDb)]);
      expect(started.get(OutboxRelay).heartbeat().running).toBe(true);
    } finally {
      await emptyDb.destroy();
    }
  });

  it('refuses kafka settings without brokers or a client, at wiring time', async () => {
    const { topicFor } = await options('outbox.opt.nokafka');
    expect(() =>
      OutboxModule.forRoot({ kafka: { clientId: 'x' }, topicFor, dataSource: outboxDb }),
    ).toThrow(/kafka\.brokers/);
    expect(() => OutboxModule.forRoot({ topicFor, dataSource: outboxDb })).toThrow(
      /kafka\.brokers/,
    );
  });

  it('refuses listenNotify on MySQL/MariaDB when the app starts, naming the engine', async () => {
    const { topic: _topic, ...rest } = await options('outbox.opt.listen');
    await expect(
      start([OutboxModule.forRoot({ ...rest, dataSource: outboxDb, listenNotify: true })]),
    ).rejects.toThrow(/listenNotify needs PostgreSQL; this DataSource is "mysql"/);
  });

  it('mounts the routes only with OutboxHttpModule (404 without it)', async () => {
    const { topic: _topic, ...rest } = await options('outbox.opt.http');
    const off = await start([OutboxModule.forRoot({ ...rest, dataSource: outboxDb })]);
    expect((await fetch(`${await off.getUrl()}/outbox/stats`)).status).toBe(404);
    await off.close();
    app = undefined;
    const on = await start([
      OutboxModule.forRoot({ ...rest, dataSource: outboxDb }),
      OutboxHttpModule.register(),
    ]);
    expect((await fetch(`${await on.getUrl()}/outbox/stats`)).status).toBe(200);
  });

  it("puts the routes behind the app's global guard (an operator token)", async () => {
    const { topic: _topic, ...rest } = await options('outbox.opt.auth');
    const started = await start([
      AppTokenGuardModule.forRoot(TEST_OPS_API_TOKEN),
      TypeOrmModule.forRoot(mysqlDataSourceOptions({ url: outboxDbUrl })),
      OutboxModule.forRoot(rest),
      OutboxHttpModule.register(),
    ]);
    const url = `${await started.getUrl()}/outbox/stats`;
    expect((await fetch(url)).status).toBe(401);
    const authorized = await fetch(url, {
      headers: { authorization: `Bearer ${TEST_OPS_API_TOKEN}` },
    });
    expect(authorized.status).toBe(200);
  });
});
