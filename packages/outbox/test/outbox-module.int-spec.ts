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
import { logLevel } from 'kafkajs';
import { DataSource } from 'typeorm';
import { OutboxMigrations, OutboxModule, OutboxWriter } from '../src';
import { OutboxHttpModule } from '../src/http';
import { consumeUntil } from './outbox-test-kit';

describe('OutboxModule in a Nest app', () => {
  let env: TestEnvironment;
  let app: INestApplication;
  let baseUrl: string;
  let topic: string;

  beforeAll(async () => {
    env = await startTestEnvironment();
    topic = await env.createTopic('outbox.module', 3);
    const database = await env.createDatabase('outbox_module');
    const moduleRef = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot(
          mysqlDataSourceOptions({
            url: database.url,
            migrations: OutboxMigrations,
          }),
        ),
        OutboxModule.forRoot({
          kafka: testKafkaConfig({
            brokers: env.infra.kafkaBrokers,
            clientId: 'module-test',
            logLevel: logLevel.NOTHING,
          }),
          topicFor: () => topic,
          relay: { pollIntervalMs: 600_000 }, // only the commit wake-up can publish in time
        }),
        OutboxHttpModule.register(),
      ],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.get(DataSource).runMigrations();
    await app.listen(0, '127.0.0.1');
    baseUrl = await app.getUrl();
  });

  afterAll(async () => {
    await app?.close();
    await env.stop();
  });

  it('publishes an event written through the injected writer right after its commit', async () => {
    const dataSource = app.get(DataSource);
    const writer = app.get(OutboxWriter);
    await dataSource.transaction((m) =>
      writer.add(m, ParcelRegisteredV1, {
        aggregateId: 'mod1',
        aggregateVersion: 1,
        payload: parcelRegistered('mod1'),
      }),
    );
    await waitFor(async () => {
      const stats = (await (await fetch(`${baseUrl}/outbox/stats`)).json()) as {
        backlog: { NEW: number; SENDING: number };
        relay: { published: number };
      };
      return stats.relay.published === 1 && stats.backlog.NEW === 0 && stats.backlog.SENDING === 0;
    });
    const messages = await consumeUntil(env.kafka, topic, (m) => m.length >= 1);
    expect(messages.map((m) => m.eventKey)).toEqual(['ParcelRegistered:mod1:1']);
  });

  it('serves the DEAD list and refuses a requeue without a filter', async () => {
    expect(await (await fetch(`${baseUrl}/outbox/dead`)).json()).toEqual([]);
    const refused = await fetch(`${baseUrl}/outbox/dead/requeue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(400);
    const all = await fetch(`${baseUrl}/outbox/dead/requeue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ all: true }),
    });
    expect(await all.json()).toEqual({ requeued: 0 });
  });

  it('audits a requeue with OutboxMigrations alone, which made the audit table too', async () => {
    const requeue = await fetch(`${baseUrl}/outbox/dead/requeue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ eventType: 'ParcelShipped', reason: 'broker quota raised' }),
    });
    expect(requeue.status).toBe(200);
    const log = await fetch(`${baseUrl}/outbox/audit?limit=1`);
    expect(log.status).toBe(200);
    expect(await log.json()).toEqual([
      expect.objectContaining({
        area: 'outbox',
        action: 'outbox.requeue',
        target: { eventType: 'ParcelShipped' },
        count: 0,
        reason: 'broker quota raised',
      }),
    ]);
  });

  it('answers bad input with 400 and the failing fields, never a 500 or a silent default', async () => {
    const send = async (path: string, body?: unknown) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const answer = (await response.json()) as { fieldErrors?: Array<{ path: string }> };
      return [response.status, answer.fieldErrors?.map((e) => e.path)];
    };
    expect(await send('/outbox/dead?limit=abc')).toEqual([400, ['limit']]);
    expect(await send('/outbox/dead?limit=-1')).toEqual([400, ['limit']]);
    expect(await send('/outbox/dead?limit=1001')).toEqual([400, ['limit']]);
    expect(await send('/outbox/dead?afterId=1%20OR%201')).toEqual([400, ['afterId']]);
    expect(await send('/outbox/dead?limit=5&extra=1')).toEqual([400, ['extra']]);
    expect(await send('/outbox/aggregates/parcel/42')).toEqual([400, ['type']]);
    expect(await send('/outbox/prune', { olderThanMs: '1' })).toEqual([400, ['olderThanMs']]);
    expect(await send('/outbox/prune', { olderThanMs: 1e300 })).toEqual([400, ['olderThanMs']]);
    expect(await send('/outbox/dead/requeue', { ids: ['x'] })).toEqual([400, ['ids']]);
    expect(await send('/outbox/dead/requeue', { all: 'true' })).toEqual([400, ['all']]);
    expect(await send('/outbox/dead/requeue', { all: true, id: 1 })).toEqual([400, ['id']]);
    expect(await send('/outbox/dead?aggregateType=parcel')).toEqual([400, ['aggregateType']]);
    expect(await send('/outbox/dead?eventType=a%20b')).toEqual([400, ['eventType']]);
    expect(await send('/outbox/dead?limit=2')).toEqual([200, undefined]);
    expect(await send('/outbox/dead?eventType=ParcelShipped&aggregateId=42')).toEqual([
      200,
      undefined,
    ]);
  });
});
