import { AddressInfo } from 'node:net';
import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { serviceConfig } from '@app/config';
import { openMysqlDataSource } from '@outbox-inbox/database/mysql';
import { OutboxCommitNotifier, createOutboxRelay, OutboxRelay } from '@outbox-inbox/outbox';
import { InMemoryOutboxPublisher } from '@outbox-inbox/outbox/testing';
import { topicForAggregate } from '@app/trading-events';
import {
  startTestEnvironment,
  TEST_OPS_API_TOKEN,
  TestEnvironment,
  waitFor,
} from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { OrderMigrations } from './migrations';
import { OrderServiceConfig } from './order-service.config';
import { configureOrderServiceHttp } from './order-service.http';
import { OrderServiceModule } from './order-service.module';
import { request } from '../test/order-service.harness';

describe('order-service readiness with a stuck relay', () => {
  let env: TestEnvironment;
  let app: INestApplication;
  let url: string;
  // Sends wait until the test opens the gate: a relay stuck in one round.
  let openGate!: () => void;
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  const publisher = new InMemoryOutboxPublisher({
    around: async (_batches, deliver) => {
      await gate;
      await deliver();
    },
  });

  beforeAll(async () => {
    env = await startTestEnvironment();
    const database = await env.createDatabase('ready');
    const migrator = await openMysqlDataSource({ url: database.url, migrations: OrderMigrations });
    try {
      await migrator.runMigrations();
    } finally {
      await migrator.destroy();
    }
    const config = await serviceConfig(OrderServiceConfig, {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: env.infra.kafkaBrokers.join(','),
      PAY_CALLBACK_SECRET: 'test-pay-callback-secret',
      HEALTH_RELAY_STALL_MS: '1000',
      OPS_API_TOKEN: TEST_OPS_API_TOKEN,
    });
    const moduleRef = await Test.createTestingModule({
      imports: [config, OrderServiceModule.forRoot()],
    })
      .overrideProvider(OutboxRelay)
      .useFactory({
        inject: [DataSource, OutboxCommitNotifier],
        factory: (dataSource: DataSource, notifier: OutboxCommitNotifier) =>
          createOutboxRelay({
            dataSource,
            notifier,
            publisher,
            topicFor: (aggregateType) => topicForAggregate(aggregateType),
            pollIntervalMs: 50,
          }),
      })
      .compile();
    app = moduleRef.createNestApplication({ logger: ['error'] });
    configureOrderServiceHttp(app);
    await app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    openGate();
    await app?.close();
    await env?.stop();
  });

  it('answers 503 naming the relay while its loop is stuck in a send, and 200 once it goes round again', async () => {
    await waitFor(async () => (await request(`${url}/health/ready`)).status === 200, {
      description: 'ready at start',
    });
    const created = await request(`${url}/orders`, {
      body: JSON.stringify({ userId: 'u-stuck', amount: 900, currency: 'EUR' }),
    });
    expect(created.status).toBe(201);
    await waitFor(() => publisher.inFlight > 0, { description: 'the relay sending OrderCreated' });

    const stuck = await waitFor(
      async () => {
        const answer = await request(`${url}/health/ready`);
        return answer.status === 503 ? answer : undefined;
      },
      { description: 'readiness failing on the stuck relay' },
    );
    expect(Object.keys(stuck.body.error)).toEqual(['outboxRelay']);
    expect(stuck.body.error.outboxRelay.message).toMatch(/has not gone round for \d+ ms/);
    expect(Object.keys(stuck.body.info)).toEqual(['database', 'schema']);
    expect(stuck.body.info.database.status).toBe('up');
    expect((await request(`${url}/health/live`)).status).toBe(200);

    openGate();
    await waitFor(async () => (await request(`${url}/health/ready`)).status === 200, {
      description: 'ready again once the send completes',
    });
    expect(publisher.published.flatMap((b) => b.messages.map((m) => m.key))).toEqual([
      created.body.id,
    ]);
  });
});
