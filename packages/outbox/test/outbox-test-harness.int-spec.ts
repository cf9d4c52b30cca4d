import { mysqlDataSourceOptions, openMysqlDataSource } from '@outbox-inbox/database/mysql';
import { openPostgresDataSource, postgresDataSourceOptions } from '@outbox-inbox/database/postgres';
import { INestApplication, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import {
  createPostgresTestDatabase,
  createTestDatabase,
  parcelRegistered,
  ParcelRegisteredV1,
  TestDatabase,
} from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { OutboxMigrations, OutboxModule, OutboxWriter } from '../src';
import { OutboxTestHarness } from '../src/testing';

/** A command of the app under test: a parcel row and its event, in one transaction. */
@Injectable()
class ParcelDesk {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxWriter,
  ) {}

  /** Registers `versions` events of `parcelId`; with `failAfterWrite`, throws before commit. */
  async register(parcelId: string, versions = 1, failAfterWrite = false): Promise<void> {
    const mark = this.dataSource.options.type === 'postgres' ? '$1' : '?';
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`INSERT INTO t_parcel (id) VALUES (${mark})`, [parcelId]);
      for (let version = 1; version <= versions; version++) {
        await this.outbox.add(manager, ParcelRegisteredV1, {
          aggregateId: parcelId,
          aggregateVersion: version,
          payload: parcelRegistered(parcelId),
        });
      }
      if (failAfterWrite) throw new Error('the command failed after writing its event');
    });
  }
}

/** The app, its relay off as in its tests; its Kafka is a port nothing answers on. */
async function createApp(url: string): Promise<INestApplication> {
  @Module({
    imports: [
      TypeOrmModule.forRoot(
        url.startsWith('postgres')
          ? postgresDataSourceOptions({ url, poolSize: 4 })
          : mysqlDataSourceOptions({ url, poolSize: 4 }),
      ),
      OutboxModule.forRoot({
        kafka: { brokers: ['127.0.0.1:9'], clientId: 'harness-app' },
        topicFor: (aggregateType) => `harness.${aggregateType.toLowerCase()}.events`,
        relay: { enabled: false },
        retention: { enabled: false },
      }),
    ],
    providers: [ParcelDesk],
  })
  class AppUnderTest {}
  const app = await NestFactory.create(AppUnderTest, { logger: false });
  await app.init();
  return app;
}

/** The database with OutboxMigrations run and the app's own table. */
async function prepare(url: string): Promise<DataSource> {
  const onPostgres = url.startsWith('postgres');
  const db = onPostgres
    ? await openPostgresDataSource({ url, migrations: OutboxMigrations })
    : await openMysqlDataSource({ url, migrations: OutboxMigrations });
  await db.runMigrations({ transaction: 'each' });
  await db.query('CREATE TABLE t_parcel (id VARCHAR(32) PRIMARY KEY)');
  return db;
}

describe.each([
  [
    'MariaDB',
    () =>
      createTestDatabase(process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306', 'outbox_harness'),
  ],
  ['PostgreSQL', () => createPostgresTestDatabase('outbox_harness')],
])('OutboxTestHarness on %s', (_engine, createDatabase) => {
  let database: TestDatabase;
  let db: DataSource;
  let app: INestApplication;
  let outbox: OutboxTestHarness;

  beforeAll(async () => {
    database = await createDatabase();
    db = await prepare(database.url);
    app = await createApp(database.url);
    outbox = OutboxTestHarness.create(app);
  });
  afterAll(async () => {
    await app?.close();
    await db?.destroy();
    await database?.drop();
  });

  /** The status of each t_outbox row of `parcelId`, by version. */
  async function statuses(parcelId: string): Promise<string[]> {
    const mark = db.options.type === 'postgres' ? '$1' : '?';
    const rows = (await db.query(
      `SELECT status FROM t_outbox WHERE aggregate_id = ${mark} ORDER BY aggregate_version`,
      [parcelId],
    )) as Array<{ status: string }>;
    return rows.map((r) => r.status);
  }

  describe('when a command writes an event', () => {
    it('lists it as written, and the relay publishes it once and marks it SENT', async () => {
      await app.get(ParcelDesk).register('p-1');

      const written = await outbox.written({ aggregateId: 'p-1' });
      expect(written).toEqual([
        expect.objectContaining({
          eventType: 'ParcelRegistered',
          aggregateType: 'Parcel',
          aggregateId: 'p-1',
          aggregateVersion: 1,
          payload: parcelRegistered('p-1'),
        }),
      ]);
      expect(await statuses('p-1')).toEqual(['NEW']);

      const published = await outbox.relay();
      expect(published).toEqual([
        {
          topic: 'harness.parcel.events',
          key: 'p-1',
          headers: expect.objectContaining({ 'event-key': written[0].eventKey }),
          envelope: written[0],
        },
      ]);
      expect(await statuses('p-1')).toEqual(['SENT']);
      expect(await outbox.relay()).toEqual([]);
      expect(outbox.published.map((m) => m.envelope.eventKey)).toContain(written[0].eventKey);
    });
  });

  describe('when a command writes several versions of an aggregate', () => {
    it('publishes them in version order', async () => {
      await app.get(ParcelDesk).register('p-3', 3);

      const published = await outbox.relay();

      expect(
        published.filter((m) => m.key === 'p-3').map((m) => m.envelope.aggregateVersion),
      ).toEqual([1, 2, 3]);
      expect(await statuses('p-3')).toEqual(['SENT', 'SENT', 'SENT']);
    });
  });

  describe('when a command fails after writing its event', () => {
    it('leaves nothing written and nothing to publish', async () => {
      await expect(app.get(ParcelDesk).register('p-failed', 1, true)).rejects.toThrow(
        'failed after writing',
      );

      expect(await outbox.written({ aggregateId: 'p-failed' })).toEqual([]);
      expect(await outbox.relay()).toEqual([]);
    });
  });
});
