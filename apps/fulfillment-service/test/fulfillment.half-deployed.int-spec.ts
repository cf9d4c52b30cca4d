import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import { serviceConfig } from '@app/config';
import { serviceRoot } from '@app/service-bootstrap';
import {
  startTestEnvironment,
  TEST_OPS_API_TOKEN,
  TestEnvironment,
  waitFor,
} from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { FulfillmentServiceConfig } from '../src/fulfillment-service.config';
import { FulfillmentServiceModule } from '../src/fulfillment-service.module';
import { configureFulfillmentService } from '../src/fulfillment-service.setup';

/**
 * fulfillment-service (an outbox and an inbox) started before its migrations ran: not ready,
 * with both components' missing tables named in /health/ready, /health/details and
 * `schema_faults`; ready once the migrations ran.
 */
describe('fulfillment-service on a half-done deployment', () => {
  let env: TestEnvironment;
  let app: INestApplication;
  let url: string;
  const get = async (path: string) => {
    const response = await fetch(`${url}${path}`, {
      headers: { authorization: `Bearer ${TEST_OPS_API_TOKEN}` },
    });
    const text = await response.text();
    return {
      status: response.status,
      text,
      body: text.startsWith('{') ? JSON.parse(text) : undefined,
    };
  };

  beforeAll(async () => {
    env = await startTestEnvironment();
    const prefix = `fh${randomBytes(3).toString('hex')}.`;
    await env.infra.kafka.createTopics({
      [`${prefix}order.events`]: 1,
      [`${prefix}fulfillment.events`]: 1,
      [`${prefix}dlq`]: 1,
      [`${prefix}fulfillment-service.retry`]: 1,
    });
    const database = await env.createDatabase('fulfillment_half');
    const config = await serviceConfig(FulfillmentServiceConfig, {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: env.infra.kafkaBrokers.join(','),
      TOPIC_PREFIX: prefix,
      COUPON_PROVIDER_URL: 'http://127.0.0.1:9',
      OPS_API_TOKEN: TEST_OPS_API_TOKEN,
    });
    app = await NestFactory.create(
      serviceRoot(
        config,
        FulfillmentServiceModule.forRoot({ inbox: { deadLetterTopic: `${prefix}dlq` } }),
      ),
      { logger: ['error'] },
    );
    configureFulfillmentService(app);
    await app.startAllMicroservices();
    await app.listen(0, '127.0.0.1');
    url = await app.getUrl();
  });

  afterAll(async () => {
    await app?.close();
    await env?.stop();
  });

  it('is not ready while its outbox and inbox tables are missing, and is ready once the migrations ran', async () => {
    const notReady = await get('/health/ready');
    expect(notReady.status).toBe(503);
    expect(notReady.body.error.schema.message).toMatch(/outbox: table t_outbox is missing/);
    expect(notReady.body.error.schema.message).toMatch(/inbox: table t_inbox is missing/);
    const details = await get('/health/details');
    expect(details.body.components.schema.status).toBe('down');
    expect(
      new Set(
        (
          details.body.components.schema.faults as Array<{ component: string; subject: string }>
        ).map((f) => `${f.component} ${f.subject}`),
      ),
    ).toEqual(
      new Set([
        'outbox t_outbox',
        'inbox t_inbox',
        'inbox t_inbox_version',
        'inbox t_inbox_parked',
        'inbox t_inbox_dlq_replay',
        'inbox t_inbox_skip',
        'inbox t_inbox_prune',
      ]),
    );
    const metrics = (await get('/metrics')).text;
    expect(metrics).toMatch(
      /^schema_faults\{component="inbox",kind="table",subject="t_inbox".*\} 1$/m,
    );
    expect(metrics).toMatch(
      /^schema_faults\{component="outbox",kind="table",subject="t_outbox".*\} 1$/m,
    );

    await app.get(DataSource).runMigrations();
    await waitFor(async () => (await get('/health/ready')).status === 200, {
      description: 'ready once the migrations ran',
    });
    expect((await get('/health/details')).body.components.schema).toEqual({ status: 'up' });
    expect((await get('/metrics')).text).not.toMatch(/^schema_faults\{/m);
  });
});
