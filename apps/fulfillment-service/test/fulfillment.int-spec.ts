import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import { serviceConfig } from '@app/config';
import { serviceRoot } from '@app/service-bootstrap';
import {
  createEnvelope,
  envelopeHeaders,
  EventDefinition,
  readHeaders,
} from '@outbox-inbox/messaging';
import {
  OrderCancelledV1,
  OrderCreatedV1,
  OrderPaidV1,
  OrderPaymentStartedV1,
} from '@app/trading-events';
import { CouponProviderClient } from '@app/coupon-client';
import {
  startTestEnvironment,
  TEST_OPS_API_TOKEN,
  TestEnvironment,
  waitFor,
} from '@outbox-inbox/test-kit';
import { Partitioners, Producer } from 'kafkajs';
import { DataSource } from 'typeorm';
import {
  RunningCouponProvider,
  startCouponProvider,
} from '../../../test/support/coupon-provider.harness';
import { createServiceUser, ServiceUser } from '@app/trading-test-kit';
import { openMysqlDataSource } from '@outbox-inbox/database/mysql';
import { FulfillmentServiceConfig } from '../src/fulfillment-service.config';
import { FulfillmentMigrations } from '../src/migrations';
import { FulfillmentServiceModule } from '../src/fulfillment-service.module';
import { configureFulfillmentService } from '../src/fulfillment-service.setup';

interface FulfillmentRow {
  order_id: string;
  status: string;
  coupon_code: string | null;
  attempts: number;
  event_version: number;
}

describe('fulfillment-service', () => {
  let env: TestEnvironment;
  let provider: RunningCouponProvider;
  let coupons: CouponProviderClient;
  let app: INestApplication;
  let db: DataSource;
  let user: ServiceUser | undefined;
  let producer: Producer;
  let prefix: string;
  let orderSeq = 1000;

  beforeAll(async () => {
    env = await startTestEnvironment();
    provider = await startCouponProvider(env);
    coupons = new CouponProviderClient({
      baseUrl: provider.baseUrl,
      operatorToken: TEST_OPS_API_TOKEN,
    });
    prefix = `f${randomBytes(3).toString('hex')}.`;
    await env.infra.kafka.createTopics({
      [`${prefix}order.events`]: 3,
      [`${prefix}fulfillment.events`]: 3,
      [`${prefix}dlq`]: 1,
      [`${prefix}fulfillment-service.retry`]: 1,
    });
    const database = await env.createDatabase('fulfillment');
    // As a deployment: the owner migrates, the service runs as its own user.
    const owner = await openMysqlDataSource({
      url: database.url,
      migrations: FulfillmentMigrations,
      poolSize: 1,
    });
    try {
      await owner.runMigrations();
    } finally {
      await owner.destroy();
    }
    user = await createServiceUser(database.url, 'fulfillment_service');
    const config = await serviceConfig(FulfillmentServiceConfig, {
      DATABASE_URL: user.url,
      KAFKA_BROKERS: env.infra.kafkaBrokers.join(','),
      TOPIC_PREFIX: prefix,
      COUPON_PROVIDER_URL: provider.baseUrl,
      OPS_API_TOKEN: TEST_OPS_API_TOKEN,
      COUPON_PROVIDER_TIMEOUT_MS: '1000',
      FULFILLMENT_RETRY_BASE_MS: '20',
      FULFILLMENT_RETRY_MAX_MS: '100',
      FULFILLMENT_RETRY_POLL_MS: '20',
      FULFILLMENT_MAX_ATTEMPTS: '4',
    });
    app = await NestFactory.create(
      serviceRoot(
        config,
        FulfillmentServiceModule.forRoot({
          inbox: { deadLetterTopic: `${prefix}dlq`, retry: { baseDelayMs: 10, maxDelayMs: 50 } },
        }),
      ),
      { logger: ['error'] },
    );
    db = app.get(DataSource);
    configureFulfillmentService(app);
    await app.startAllMicroservices();
    await app.listen(0, '127.0.0.1');
    producer = env.kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await app?.close();
    await user?.drop();
    await provider?.close();
    await env?.stop();
  });

  /** Publishes an order's events as the order-service's relay would: key = order id. */
  async function publish(...events: ReturnType<typeof orderEvent>[]): Promise<void> {
    await producer.send({
      topic: `${prefix}order.events`,
      acks: -1,
      messages: events.map((e) => ({
        key: e.aggregateId,
        value: JSON.stringify(e),
        headers: envelopeHeaders(e),
      })),
    });
  }

  function orderEvent<P extends object>(
    definition: EventDefinition<P>,
    orderId: string,
    version: number,
    payload: P,
  ) {
    return createEnvelope(definition, { aggregateId: orderId, aggregateVersion: version, payload });
  }

  /** OrderCreated, OrderPaymentStarted and OrderPaid of a new order (versions 1, 2, 3). */
  function paidOrder(amount = 10_000) {
    const orderId = String(++orderSeq);
    const now = new Date().toISOString();
    const common = { orderId, amount, currency: 'EUR' };
    return {
      orderId,
      created: orderEvent(OrderCreatedV1, orderId, 1, { ...common, userId: 'u-1', createdAt: now }),
      started: orderEvent(OrderPaymentStartedV1, orderId, 2, {
        ...common,
        payOrderId: `pay-${orderId}`,
        startedAt: now,
      }),
      paid: orderEvent(OrderPaidV1, orderId, 3, {
        ...common,
        userId: 'u-1',
        payOrderId: `pay-${orderId}`,
        notifyId: `n-${orderId}`,
        paidAt: now,
      }),
    };
  }

  async function fulfillment(orderId: string): Promise<FulfillmentRow | undefined> {
    const rows: FulfillmentRow[] = await db.query(
      'SELECT order_id, status, coupon_code, attempts, event_version FROM t_fulfillment WHERE order_id = ?',
      [orderId],
    );
    return rows[0];
  }

  /** Event types in the fulfillment outbox about `orderId`, oldest first (payload = envelope). */
  async function outboxEvents(orderId: string): Promise<string[]> {
    const rows: Array<{ event_type: string; payload: string }> = await db.query(
      'SELECT event_type, payload FROM t_outbox ORDER BY id',
    );
    return rows
      .filter((r) => JSON.parse(r.payload).payload.orderId === orderId)
      .map((r) => r.event_type);
  }

  async function grantsFor(key: string): Promise<number> {
    const stats = await coupons.stats();
    return stats.perKey.find((k) => k.idempotencyKey === key)?.grants ?? 0;
  }

  it('grants exactly one coupon for an OrderPaid delivered three times, and emits one FulfillmentDone', async () => {
    const order = paidOrder();
    await publish(order.created, order.started, order.paid, order.paid);
    await publish(order.paid);

    const done = await waitFor(async () => {
      const row = await fulfillment(order.orderId);
      return row?.status === 'DONE' && row;
    });
    expect(done.coupon_code).toBeTruthy();
    expect(Number(done.event_version)).toBe(1);
    await waitFor(
      async () =>
        (
          await db.query('SELECT COUNT(*) AS n FROM t_inbox WHERE event_key = ?', [
            order.paid.eventKey,
          ])
        )[0].n == 1,
    );
    expect(await grantsFor(order.paid.eventKey)).toBe(1);
    expect(await outboxEvents(order.orderId)).toEqual(['FulfillmentDone']);
  });

  it('publishes FulfillmentDone to the fulfillment topic through the relay, keyed by fulfillment id', async () => {
    const order = paidOrder();
    await publish(order.created, order.started, order.paid);
    await waitFor(async () => (await fulfillment(order.orderId))?.status === 'DONE');

    const consumer = env.kafka.consumer({ groupId: `check-${prefix}${order.orderId}` });
    const seen: Array<{ type: string; orderId: string }> = [];
    try {
      await consumer.connect();
      await consumer.subscribe({ topic: `${prefix}fulfillment.events`, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          const headers = readHeaders(message.headers);
          const body = JSON.parse(String(message.value));
          expect(String(message.key)).toBe(body.aggregateId);
          seen.push({ type: headers['event-type'], orderId: body.payload.orderId });
        },
      });
      await waitFor(() => seen.some((s) => s.orderId === order.orderId));
    } finally {
      await consumer.disconnect();
    }
    expect(seen.filter((s) => s.orderId === order.orderId)).toEqual([
      { type: 'FulfillmentDone', orderId: order.orderId },
    ]);
  });

  it('leaves a failed grant FAILED, retries it with backoff and the same key, then DONE', async () => {
    await coupons.setFaults({ failNextRequests: 2 });
    const order = paidOrder();
    await publish(order.created, order.started, order.paid);

    const done = await waitFor(async () => {
      const row = await fulfillment(order.orderId);
      return row?.status === 'DONE' && row;
    });
    expect(Number(done.attempts)).toBe(3);
    expect(await grantsFor(order.paid.eventKey)).toBe(1);
    expect(await outboxEvents(order.orderId)).toEqual(['FulfillmentDone']);
  });

  it('when the provider commits a grant and drops its reply, the retry gets the same coupon', async () => {
    await coupons.setFaults({ dropNextReplies: 1 });
    const order = paidOrder();
    await publish(order.created, order.started, order.paid);

    const done = await waitFor(async () => {
      const row = await fulfillment(order.orderId);
      return row?.status === 'DONE' && row;
    });
    expect(Number(done.attempts)).toBe(2);
    const stats = await coupons.stats();
    const key = stats.perKey.find((k) => k.idempotencyKey === order.paid.eventKey);
    expect(key).toMatchObject({ grants: 1, requests: 2 });
  });

  it('shows a fulfillment whose retries are used up as stuck', async () => {
    await coupons.setFaults({ failNextRequests: 4 });
    const order = paidOrder();
    await publish(order.created, order.started, order.paid);

    await waitFor(async () => {
      const response = await fetch(`${await app.getUrl()}/fulfillments/stuck`, {
        headers: { authorization: `Bearer ${TEST_OPS_API_TOKEN}` },
      });
      const stuck = (await response.json()) as Array<{ orderId: string; attempts: number }>;
      return stuck.some((s) => s.orderId === order.orderId && s.attempts === 4);
    });
    expect(await grantsFor(order.paid.eventKey)).toBe(0);
    expect(await outboxEvents(order.orderId)).toEqual([]);
    await coupons.setFaults({ failNextRequests: 0 });

    // A bad limit is a 400 naming it, never a 500 from the query it would build.
    for (const limit of ['-1', '0', 'abc', '1001', '1.5']) {
      const response = await fetch(`${await app.getUrl()}/fulfillments/stuck?limit=${limit}`, {
        headers: { authorization: `Bearer ${TEST_OPS_API_TOKEN}` },
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { fieldErrors: Array<{ path: string }> };
      expect(body.fieldErrors.map((e) => e.path)).toEqual(['limit']);
    }
  });

  it('compensates a done fulfillment when its order is cancelled: coupon revoked, FulfillmentReverted', async () => {
    const order = paidOrder();
    await publish(order.created, order.started, order.paid);
    const done = await waitFor(async () => {
      const row = await fulfillment(order.orderId);
      return row?.status === 'DONE' && row;
    });
    const cancelled = orderEvent(OrderCancelledV1, order.orderId, 4, {
      orderId: order.orderId,
      userId: 'u-1',
      reason: 'refunded',
      cancelledAt: new Date().toISOString(),
    });
    await publish(cancelled, cancelled);

    await waitFor(async () => (await fulfillment(order.orderId))?.status === 'REVERTED');
    expect(await outboxEvents(order.orderId)).toEqual(['FulfillmentDone', 'FulfillmentReverted']);
    const stats = await coupons.stats();
    expect(stats.revoked).toBeGreaterThanOrEqual(1);
    expect(done.coupon_code).toBeTruthy();
  });

  it('cancels an order that was never paid without calling the provider', async () => {
    const order = paidOrder();
    const cancelled = orderEvent(OrderCancelledV1, order.orderId, 3, {
      orderId: order.orderId,
      userId: 'u-1',
      reason: 'changed mind',
      cancelledAt: new Date().toISOString(),
    });
    await publish(order.created, order.started, cancelled);
    await waitFor(async () => (await fulfillment(order.orderId))?.status === 'CANCELLED');
    expect(await outboxEvents(order.orderId)).toEqual([]);
  });
});
