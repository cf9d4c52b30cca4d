import { randomBytes } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { serviceConfig } from '@app/config';
import { openMysqlDataSource } from '@outbox-inbox/database/mysql';
import { OutboxRelay } from '@outbox-inbox/outbox';
import {
  startTestEnvironment,
  TEST_OPS_API_TOKEN,
  TestDatabase,
  TestEnvironment,
  waitFor,
} from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { OrderMigrations } from './migrations';
import { OrderServiceConfig } from './order-service.config';
import { configureOrderServiceHttp } from './order-service.http';
import { OrderServiceModule } from './order-service.module';
import { request } from '../test/order-service.harness';

/**
 * order-service started before its migrations ran: not ready (it could not take an order),
 * /health/details and `schema_faults` name t_outbox, the relay waits; once the migrations
 * run it is ready, and an order's events are published.
 */
describe('order-service on a half-done deployment', () => {
  let env: TestEnvironment;
  let database: TestDatabase;
  let app: INestApplication;
  let url: string;
  const ops = { authorization: `Bearer ${TEST_OPS_API_TOKEN}` };
  const metrics = async () => (await request(`${url}/metrics`, { headers: ops })).text;

  beforeAll(async () => {
    env = await startTestEnvironment();
    database = await env.createDatabase('half_deployed');
    // The topic the service derives from TOPIC_PREFIX: topics exist before anyone produces.
    const prefix = `hd${randomBytes(3).toString('hex')}.`;
    await env.infra.kafka.createTopics({ [`${prefix}order.events`]: 1 });
    const config = await serviceConfig(OrderServiceConfig, {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: env.infra.kafkaBrokers.join(','),
      PAY_CALLBACK_SECRET: 'test-pay-callback-secret',
      OPS_API_TOKEN: TEST_OPS_API_TOKEN,
      TOPIC_PREFIX: prefix,
    });
    const moduleRef = await Test.createTestingModule({
      imports: [config, OrderServiceModule.forRoot()],
    }).compile();
    app = moduleRef.createNestApplication({ logger: ['error'] });
    configureOrderServiceHttp(app);
    await app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app?.close();
    await env?.stop();
  });

  it('is not ready while t_outbox is missing, names it, and is ready once the migrations ran', async () => {
    const notReady = await request(`${url}/health/ready`);
    expect(notReady.status).toBe(503);
    expect(notReady.body.error.schema.message).toMatch(
      /outbox: table t_outbox is missing \(ER_NO_SUCH_TABLE\)/,
    );
    expect((await request(`${url}/health/live`)).status).toBe(200);
    const details = await request(`${url}/health/details`);
    expect(details.body.components.schema).toMatchObject({
      status: 'down',
      faults: [{ component: 'outbox', kind: 'table', subject: 't_outbox' }],
    });
    expect(await metrics()).toMatch(
      /^schema_faults\{component="outbox",kind="table",subject="t_outbox".*\} 1$/m,
    );
    const relay = app.get(OutboxRelay);
    await waitFor(() => relay.faults().length > 0, {
      description: 'the relay met t_outbox missing',
    });
    expect(relay.faults()).toMatchObject([{ kind: 'schema', subject: 't_outbox' }]);

    const migrator: DataSource = await openMysqlDataSource({
      url: database.url,
      migrations: OrderMigrations,
    });
    try {
      await migrator.runMigrations();
      await waitFor(async () => (await request(`${url}/health/ready`)).status === 200, {
        description: 'ready once the migrations ran',
      });
      expect((await request(`${url}/health/details`)).body.components.schema).toEqual({
        status: 'up',
      });
      expect(await metrics()).not.toMatch(/^schema_faults\{/m);

      const created = await request(`${url}/orders`, {
        body: JSON.stringify({ userId: 'u-half', amount: 900, currency: 'EUR' }),
      });
      expect(created.status).toBe(201);
      await waitFor(
        async () => {
          const rows = (await migrator.query('SELECT status FROM t_outbox WHERE aggregate_id = ?', [
            created.body.id,
          ])) as Array<{ status: string }>;
          return rows.length > 0 && rows.every((r) => r.status === 'SENT');
        },
        { description: "the order's events SENT" },
      );
      expect(relay.faults()).toEqual([]);
    } finally {
      await migrator.destroy();
    }
  });
});
