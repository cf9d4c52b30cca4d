import { mysqlDataSourceOptions } from '@outbox-inbox/database/mysql';
import { postgresDataSourceOptions } from '@outbox-inbox/database/postgres';
import { INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import {
  createPostgresTestDatabase,
  createTestDatabase,
  parcelEvent,
  parcelEventRegistry,
  TestDatabase,
} from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { InboxModule, InboxTransport } from '../src';
import { InboxTestHarness } from '../src/testing';
import { prepareDatabase } from './fixtures/inbox-test-app';
import { TEST_BEHAVIOUR, TestBehaviour, TestConsumer } from './fixtures/test-consumer.controller';

const CONSUMER = 'harness-consumer';

/**
 * An app as its own tests build it: TypeORM, InboxModule and its consumer controller, never
 * listening. Its Kafka is a port nothing answers on: the harness must not need it.
 */
async function createApp(url: string, behaviour: TestBehaviour): Promise<INestApplication> {
  const onPostgres = url.startsWith('postgres');
  @Module({
    imports: [
      TypeOrmModule.forRoot(
        onPostgres
          ? postgresDataSourceOptions({ url, poolSize: 4 })
          : mysqlDataSourceOptions({ url, poolSize: 4 }),
      ),
      InboxModule.forRoot({
        consumer: CONSUMER,
        kafka: { brokers: ['127.0.0.1:9'], clientId: 'harness-app' },
        topics: ['parcels'],
        registry: parcelEventRegistry(),
        retry: { maxAttempts: 4 },
      }),
    ],
    controllers: [TestConsumer],
    providers: [{ provide: TEST_BEHAVIOUR, useValue: behaviour }],
  })
  class AppUnderTest {}
  const app = await NestFactory.create(AppUnderTest, { logger: false });
  await app.init();
  return app;
}

describe.each([
  [
    'MariaDB',
    () =>
      createTestDatabase(process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306', 'inbox_harness'),
  ],
  ['PostgreSQL', () => createPostgresTestDatabase('inbox_harness')],
])('InboxTestHarness on %s', (_engine, createDatabase) => {
  let database: TestDatabase;
  let db: DataSource;
  let app: INestApplication;
  let behaviour: TestBehaviour;
  let inbox: InboxTestHarness;
  let mark: (n: number) => string;

  beforeAll(async () => {
    database = await createDatabase();
    db = await prepareDatabase(database.url);
    mark = db.options.type === 'postgres' ? (n) => `$${n}` : () => '?';
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });
  beforeEach(async () => {
    behaviour = new TestBehaviour();
    app = await createApp(database.url, behaviour);
    inbox = InboxTestHarness.create(app);
  });
  afterEach(() => app?.close());

  /** The versions of `parcelId` the app's handler wrote, in the order it wrote them. */
  async function effectVersions(parcelId: string): Promise<number[]> {
    const rows = (await db.query(
      `SELECT aggregate_version FROM t_test_effect WHERE aggregate_id = ${mark(1)} ORDER BY id`,
      [parcelId],
    )) as Array<{ aggregate_version: number | string }>;
    return rows.map((r) => Number(r.aggregate_version));
  }

  /** The t_inbox outcome of each event key of `keys` that has a row. */
  async function inboxOutcomes(keys: string[]): Promise<Record<string, string>> {
    const rows = (await db.query(
      `SELECT event_key, outcome FROM t_inbox WHERE consumer = ${mark(1)}`,
      [CONSUMER],
    )) as Array<{ event_key: string; outcome: string }>;
    return Object.fromEntries(
      rows.filter((r) => keys.includes(r.event_key)).map((r) => [r.event_key, r.outcome]),
    );
  }

  describe('when the same event is delivered twice', () => {
    it('applies it once and answers duplicate the second time', async () => {
      const event = parcelEvent('registered', 'twice', 1);
      expect(await inbox.deliver(event)).toEqual({ outcome: 'applied', drained: 0 });
      expect(await inbox.deliver(event)).toEqual({ outcome: 'duplicate', drained: 0 });

      expect(await effectVersions('twice')).toEqual([1]);
      expect(await inboxOutcomes([event.eventKey])).toEqual({ [event.eventKey]: 'applied' });
      expect(inbox.deliveries.map((d) => [d.position.offset, d.result.outcome])).toEqual([
        ['0', 'applied'],
        ['1', 'duplicate'],
      ]);
      // The handler saw the event once, with the headers the relay would have sent.
      expect(behaviour.attempts.get(event.eventKey)).toBe(1);
    });
  });

  describe('when versions 3, 1, 2 arrive in that order', () => {
    it('parks 3, applies 1, then 2 and drains 3 after it', async () => {
      const [v1, v2, v3] = [
        parcelEvent('registered', 'order', 1),
        parcelEvent('shipped', 'order', 2),
        parcelEvent('returned', 'order', 3),
      ];
      expect(await inbox.deliver(v3)).toEqual({ outcome: 'parked', drained: 0 });
      expect(await effectVersions('order')).toEqual([]);
      expect(await inbox.deliver(v1)).toEqual({ outcome: 'applied', drained: 0 });
      expect(await inbox.deliver(v2)).toEqual({ outcome: 'applied', drained: 1 });

      expect(await effectVersions('order')).toEqual([1, 2, 3]);
      const stale = parcelEvent('returned', 'order', 1);
      expect(await inbox.deliver(stale)).toEqual({ outcome: 'stale', drained: 0 });
      expect(await effectVersions('order')).toEqual([1, 2, 3]);
      expect(await inboxOutcomes([v1, v2, v3, stale].map((e) => e.eventKey))).toEqual({
        [v1.eventKey]: 'applied',
        [v2.eventKey]: 'applied',
        [v3.eventKey]: 'applied',
        [stale.eventKey]: 'stale',
      });
    });
  });

  describe('when an event fails validation', () => {
    it('dead-letters it at once and changes nothing', async () => {
      const good = parcelEvent('registered', 'invalid', 1);
      const invalid = { ...good, payload: { ...(good.payload as object), declaredValue: 'a lot' } };

      const result = await inbox.deliver(invalid);

      expect(result).toEqual({
        outcome: 'dead-lettered',
        errorCode: 'INVALID_EVENT',
        error: expect.stringContaining('declaredValue'),
        attempts: 1,
      });
      expect(await effectVersions('invalid')).toEqual([]);
      expect(await inboxOutcomes([good.eventKey])).toEqual({});
      expect(behaviour.attempts.size).toBe(0);
      expect(inbox.deadLetters).toEqual([
        expect.objectContaining({
          key: 'invalid',
          value: JSON.stringify(invalid),
          reason: expect.objectContaining({ consumer: CONSUMER, topic: 'parcels', offset: '0' }),
        }),
      ]);
      // The aggregate's gate did not move: the valid version 1 still applies.
      expect(await inbox.deliver(good)).toEqual({ outcome: 'applied', drained: 0 });
      expect(await effectVersions('invalid')).toEqual([1]);
    });

    it('dead-letters a message value that is no JSON as NOT_JSON', async () => {
      expect(await inbox.deliver('not an event')).toMatchObject({
        outcome: 'dead-lettered',
        errorCode: 'NOT_JSON',
      });
    });
  });

  describe('when the handler refuses an event', () => {
    it('dead-letters it and rolls its transaction back, inbox row included', async () => {
      const refused = parcelEvent('registered', 'refused', 1);
      behaviour.rejected.add(refused.eventKey);

      expect(await inbox.deliver(refused)).toEqual({
        outcome: 'dead-lettered',
        errorCode: 'NON_RETRYABLE',
        error: 'rejected by the test',
        attempts: 1,
      });
      expect(await effectVersions('refused')).toEqual([]);
      expect(await inboxOutcomes([refused.eventKey])).toEqual({});
    });
  });

  describe('when the handler hits deadlocks', () => {
    it('retries the whole transaction and applies the event once', async () => {
      const event = parcelEvent('registered', 'deadlocked', 1);
      behaviour.deadlocks.set(event.eventKey, 2);

      expect(await inbox.deliver(event)).toEqual({ outcome: 'applied', drained: 0 });
      expect(behaviour.attempts.get(event.eventKey)).toBe(3);
      expect(await effectVersions('deadlocked')).toEqual([1]);
    });
  });

  describe('when the app connected its transport itself', () => {
    it('uses the handlers registered there, each once', async () => {
      const connected = await createApp(database.url, behaviour);
      try {
        connected.connectMicroservice({ strategy: connected.get(InboxTransport) });
        const harness = InboxTestHarness.create(connected);
        const event = parcelEvent('registered', 'connected', 1);
        expect(await harness.deliver(event)).toEqual({ outcome: 'applied', drained: 0 });
        expect(await effectVersions('connected')).toEqual([1]);
      } finally {
        await connected.close();
      }
    });
  });
});
