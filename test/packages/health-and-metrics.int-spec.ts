import { Controller, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, Payload } from '@nestjs/microservices';
import { HealthCheckService, TerminusModule } from '@nestjs/terminus';
import { TypeOrmModule } from '@nestjs/typeorm';
import {
  parcelEventRegistry,
  parcelRegistered,
  ParcelRegisteredV1,
  startTestEnvironment,
  TestEnvironment,
  waitFor,
} from '@outbox-inbox/test-kit';
import { runTransaction } from '@outbox-inbox/database';
import { mysqlDataSourceOptions } from '@outbox-inbox/database/mysql';
import {
  InboxContext,
  InboxMigrations,
  InboxModule,
  InboxTransport,
  NonRetryableError,
  OnEvent,
} from '@outbox-inbox/inbox';
import { InboxHealthIndicator, InboxHealthModule } from '@outbox-inbox/inbox/health';
import { InboxMetricsModule } from '@outbox-inbox/inbox/metrics';
import { defineEvent, EventEnvelope } from '@outbox-inbox/messaging';
import { OutboxMigrations, OutboxModule, OutboxRelay, OutboxWriter } from '@outbox-inbox/outbox';
import { OutboxHealthIndicator, OutboxHealthModule } from '@outbox-inbox/outbox/health';
import { OutboxMetricsModule } from '@outbox-inbox/outbox/metrics';
import { IsString } from 'class-validator';
import { logLevel } from 'kafkajs';
import { Registry } from 'prom-client';
import { DataSource } from 'typeorm';

/** An event whose aggregate type no topic is configured for: the relay makes its rows DEAD. */
class LabelPrintedV1Payload {
  @IsString() labelId!: string;
}
const LabelPrintedV1 = defineEvent({
  eventType: 'LabelPrinted',
  aggregateType: 'Label',
  schemaVersion: 1,
  payload: LabelPrintedV1Payload,
});

/** Parcel ids whose ParcelRegistered the handler refuses for good (a dead letter). */
const REFUSED = new Set(['p-refused']);

/** An adopter's handler: applies ParcelRegistered, refuses the ones in REFUSED. */
@Controller()
class ParcelHandler {
  @OnEvent(ParcelRegisteredV1)
  async onRegistered(@Payload() event: EventEnvelope, @Ctx() context: InboxContext) {
    if (REFUSED.has(event.aggregateId)) throw new NonRetryableError('refused by the test');
    await context.manager.query('INSERT INTO t_parcel (id) VALUES (?)', [event.aggregateId]);
  }
}

/** Every sample of one scrape, as `name{labels}` → value. */
async function scrape(registry: Registry): Promise<Map<string, number>> {
  const samples = new Map<string, number>();
  for (const metric of await registry.getMetricsAsJSON()) {
    for (const value of metric.values) {
      const name = (value as { metricName?: string }).metricName ?? metric.name;
      samples.set(`${name}${JSON.stringify(value.labels)}`, value.value);
    }
  }
  return samples;
}

/**
 * The packages' /health and /metrics subpaths in an app as an adopter writes it: OutboxModule
 * and InboxModule on MariaDB and a Kafka broker, the indicators and metrics modules beside
 * them, a prom-client registry of the app's own. Values come from the real tables, relay and
 * consumer: one DEAD row, one row held behind it, one dead letter.
 */
describe('the /health and /metrics subpaths of the outbox and the inbox, in a Nest app', () => {
  let env: TestEnvironment;
  let app: INestApplication;
  const registry = new Registry();

  beforeAll(async () => {
    env = await startTestEnvironment();
    const topic = await env.createTopic('health.parcels', 2);
    const deadLetterTopic = await env.createTopic('health.parcels.dlq', 1);
    const retryTopic = await env.createTopic('health.parcels.retry', 1);
    const database = await env.createDatabase('health_metrics');
    const kafka = { brokers: env.infra.kafkaBrokers, logLevel: logLevel.NOTHING };

    @Module({
      imports: [
        TypeOrmModule.forRoot({
          ...mysqlDataSourceOptions({
            url: database.url,
            migrations: [...OutboxMigrations, ...InboxMigrations],
          }),
          migrationsRun: true,
        }),
        OutboxModule.forRoot({
          kafka: { ...kafka, clientId: 'health-outbox' },
          topicFor: (aggregateType) => {
            if (aggregateType !== 'Parcel') throw new Error(`no topic for ${aggregateType}`);
            return topic;
          },
          relay: { pollIntervalMs: 200 },
        }),
        InboxModule.forRoot({
          consumer: 'health-parcels',
          kafka: { ...kafka, clientId: 'health-inbox', maxWaitTimeMs: 100 },
          topics: [topic],
          deadLetterTopic,
          retryTopic,
          registry: parcelEventRegistry(),
          gapCheckIntervalMs: 0,
          pruneIntervalMs: 0,
        }),
        TerminusModule,
        OutboxHealthModule,
        InboxHealthModule,
        OutboxMetricsModule.forRoot({ registry, prefix: 'shop_' }),
        InboxMetricsModule.forRoot({ registry }),
      ],
      controllers: [ParcelHandler],
    })
    class ShopModule {}

    app = await NestFactory.create(ShopModule, { logger: false });
    await app.get(DataSource).query('CREATE TABLE t_parcel (id VARCHAR(64) PRIMARY KEY)');
    app.connectMicroservice({ strategy: app.get(InboxTransport) });
    await app.startAllMicroservices();
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    await env?.stop();
  });

  it('reports DEAD rows, a held-back row, a dead letter and applied events as they are', async () => {
    const outboxHealth = app.get(OutboxHealthIndicator);
    const inboxHealth = app.get(InboxHealthIndicator);
    await waitFor(() => inboxHealth.checkConsumer().inboxConsumer.status === 'up', {
      description: 'the consumer joined its group',
    });

    const dataSource = app.get(DataSource);
    const writer = app.get(OutboxWriter);
    await runTransaction(dataSource, async (manager) => {
      for (const parcelId of ['p-1', 'p-2', 'p-refused']) {
        await writer.add(manager, ParcelRegisteredV1, {
          aggregateId: parcelId,
          aggregateVersion: 1,
          payload: parcelRegistered(parcelId),
        });
      }
      // Version 1 cannot be routed (DEAD); version 2 is held behind it, unsent.
      for (const version of [1, 2]) {
        await writer.add(manager, LabelPrintedV1, {
          aggregateId: 'l-1',
          aggregateVersion: version,
          payload: { labelId: 'l-1' },
        });
      }
    });

    const settled = await waitFor(
      async () => {
        const samples = await scrape(registry);
        const applied = samples.get('inbox_messages_total{"outcome":"applied"}');
        return applied === 2 && samples.get('inbox_dead_lettered_total{}') === 1 && samples;
      },
      { description: 'two events applied and one dead-lettered' },
    );
    expect(settled.get('shop_outbox_published_total{}')).toBe(3);
    expect(settled.get('shop_outbox_dead_rows{}')).toBe(1);
    expect(settled.get('shop_outbox_backlog_rows{"status":"DEAD"}')).toBe(1);
    expect(settled.get('shop_outbox_backlog_rows{"status":"NEW"}')).toBe(1);
    expect(settled.get('shop_outbox_aggregates_blocked_by_dead{}')).toBe(1);
    expect(settled.get('shop_outbox_oldest_unsent_age_seconds{}')).toBeGreaterThan(0);
    expect(settled.get('shop_outbox_stats_up{}')).toBe(1);
    expect(settled.get('inbox_group_joins_total{}')).toBeGreaterThanOrEqual(1);
    expect(settled.get('inbox_processing_seconds_count{"outcome":"applied"}')).toBe(2);
    expect(await dataSource.query('SELECT id FROM t_parcel ORDER BY id')).toEqual([
      { id: 'p-1' },
      { id: 'p-2' },
    ]);

    // Details: what waits, with warnings, never down for it.
    const backlog = await outboxHealth.checkBacklog('outbox', { maxUnsentAgeMs: 1 });
    expect(backlog.outbox).toMatchObject({
      status: 'up',
      dead: 1,
      aggregatesBlockedByDead: 1,
      backlog: { NEW: 1, SENDING: 0, DEAD: 1 },
      warnings: [
        '1 DEAD row(s) wait for an operator',
        expect.stringMatching(/^the oldest unsent row is \d+ ms old \(limit 1 ms\)$/),
      ],
    });
    expect(backlog.outbox.oldestUnsentAgeMs).toBeGreaterThan(0);
    const inbox = await inboxHealth.checkBacklog();
    expect(inbox.inbox).toMatchObject({
      status: 'up',
      deadLetterTopicMessages: 1,
      warnings: ['1 message(s) in the dead-letter topic'],
    });

    // Readiness: this instance can do its work, DEAD rows and dead letters notwithstanding.
    const health = app.get(HealthCheckService);
    const ready = () =>
      health.check([() => outboxHealth.checkRelay(), () => inboxHealth.checkConsumer()]);
    await expect(ready()).resolves.toMatchObject({
      status: 'ok',
      details: { outboxRelay: { status: 'up' }, inboxConsumer: { status: 'up' } },
    });

    // A relay that no longer runs takes this instance out: terminus answers 503.
    await app.get(OutboxRelay).stop();
    await expect(ready()).rejects.toMatchObject({
      status: 503,
      response: {
        status: 'error',
        error: { outboxRelay: { status: 'down', message: 'the relay is not running' } },
      },
    });
  });
});
