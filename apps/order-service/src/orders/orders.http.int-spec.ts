import { startTestEnvironment, TestEnvironment } from '@outbox-inbox/test-kit';
import {
  outboxRowsOf,
  request,
  RunningOrderService,
  startOrderService,
} from '../../test/order-service.harness';

describe('order-service HTTP: orders', () => {
  let env: TestEnvironment;
  let service: RunningOrderService;
  let url: string;
  const statuses: number[] = [];

  async function call(path: string, init: Parameters<typeof request>[1] = {}) {
    const response = await request(`${url}${path}`, init);
    statuses.push(response.status);
    return response;
  }

  async function createOrder(body: object = { userId: 'u-1', amount: 1999, currency: 'EUR' }) {
    const response = await call('/orders', { body: JSON.stringify(body) });
    expect(response.status).toBe(201);
    return response.body as { id: string; status: string; version: number };
  }

  async function count(sql: string, params: unknown[] = []): Promise<number> {
    const [row] = await service.dataSource.query(sql, params);
    return Number(row.n);
  }

  beforeAll(async () => {
    env = await startTestEnvironment();
    service = await startOrderService(env);
    url = service.baseUrl;
  });

  afterAll(async () => {
    await service?.close();
    await env?.stop();
  });

  afterAll(() => {
    // No request of this file, valid or not, may have caused a server error.
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });

  it('creates an order: 201 with a string id, a CREATED row and OrderCreated v1 in the outbox', async () => {
    const order = await createOrder();
    expect(order).toMatchObject({
      id: expect.stringMatching(/^\d+$/),
      userId: 'u-1',
      amount: 1999,
      currency: 'EUR',
      status: 'CREATED',
      version: 1,
      payOrderId: null,
    });
    expect(await outboxRowsOf(service.dataSource, order.id)).toEqual([
      {
        eventType: 'OrderCreated',
        version: 1,
        payload: expect.objectContaining({ orderId: order.id, amount: 1999, currency: 'EUR' }),
      },
    ]);
    expect((await call(`/orders/${order.id}`)).body).toEqual(order);
  });

  it('pays an order: PAYING with a payOrderId, a retry keeps it, OrderPaymentStarted v2', async () => {
    const order = await createOrder();
    const paying = await call(`/orders/${order.id}/pay`, { method: 'POST' });
    expect(paying.status).toBe(200);
    expect(paying.body).toMatchObject({ status: 'PAYING', version: 2 });
    expect(paying.body.payOrderId).toMatch(/^pay_[0-9a-f]{32}$/);

    const again = await call(`/orders/${order.id}/pay`, { method: 'POST' });
    expect(again.body).toMatchObject({ payOrderId: paying.body.payOrderId, version: 2 });
    const events = await outboxRowsOf(service.dataSource, order.id);
    expect(events.map((e) => [e.eventType, e.version])).toEqual([
      ['OrderCreated', 1],
      ['OrderPaymentStarted', 2],
    ]);
    expect(events[1].payload).toMatchObject({ payOrderId: paying.body.payOrderId });
  });

  it('cancels an order once: CANCELLED with OrderCancelled, a repeat changes nothing, pay → 409', async () => {
    const order = await createOrder();
    await call(`/orders/${order.id}/pay`, { method: 'POST' });
    const cancelled = await call(`/orders/${order.id}/cancel`, {
      body: JSON.stringify({ reason: 'customer request' }),
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      status: 'CANCELLED',
      version: 3,
      closeReason: 'customer request',
    });
    expect((await call(`/orders/${order.id}/cancel`, { method: 'POST' })).body).toMatchObject({
      status: 'CANCELLED',
      version: 3,
    });
    expect((await call(`/orders/${order.id}/pay`, { method: 'POST' })).status).toBe(409);
    const events = await outboxRowsOf(service.dataSource, order.id);
    expect(events.map((e) => [e.eventType, e.version])).toEqual([
      ['OrderCreated', 1],
      ['OrderPaymentStarted', 2],
      ['OrderCancelled', 3],
    ]);
  });

  it('answers 404 for an unknown or malformed order id', async () => {
    for (const path of ['/orders/999999999', '/orders/abc', '/orders/0']) {
      expect((await call(path)).status).toBe(404);
    }
    expect((await call('/orders/999999999/pay', { method: 'POST' })).status).toBe(404);
    expect((await call('/orders/x/cancel', { method: 'POST' })).status).toBe(404);
  });

  describe('Idempotency-Key', () => {
    const body = JSON.stringify({ userId: 'u-idem', amount: 500, currency: 'USD' });

    it('returns the first response to a retry with the same key and body, one order only', async () => {
      const headers = { 'idempotency-key': 'key-sequential' };
      const first = await call('/orders', { body, headers });
      const second = await call('/orders', { body, headers });
      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(second.body).toEqual(first.body);
      expect(await count("SELECT COUNT(*) n FROM t_order WHERE user_id = 'u-idem'")).toBe(1);
    });

    it('gives 20 concurrent copies the same order, and creates one order and one event', async () => {
      const headers = { 'idempotency-key': 'key-concurrent' };
      const copy = JSON.stringify({ userId: 'u-idem-c', amount: 700, currency: 'USD' });
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => call('/orders', { body: copy, headers })),
      );
      expect(new Set(responses.map((r) => r.status))).toEqual(new Set([201]));
      expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
      expect(await count("SELECT COUNT(*) n FROM t_order WHERE user_id = 'u-idem-c'")).toBe(1);
      const events = await outboxRowsOf(service.dataSource, responses[0].body.id);
      expect(events.map((e) => e.eventType)).toEqual(['OrderCreated']);
    });

    it('answers 422 when the key comes back with another body, and creates nothing', async () => {
      const headers = { 'idempotency-key': 'key-reused' };
      await call('/orders', { body, headers });
      const before = await count('SELECT COUNT(*) n FROM t_order');
      const other = JSON.stringify({ userId: 'u-idem', amount: 501, currency: 'USD' });
      expect((await call('/orders', { body: other, headers })).status).toBe(422);
      expect(await count('SELECT COUNT(*) n FROM t_order')).toBe(before);
    });

    it('answers 400 for a key that is too long or not printable ASCII', async () => {
      const headers = { 'idempotency-key': 'k'.repeat(129) };
      expect((await call('/orders', { body, headers })).status).toBe(400);
    });
  });

  describe('invalid requests', () => {
    it('answers 400 with field errors for unknown fields, wrong types and bad currencies', async () => {
      const response = await call('/orders', {
        body: JSON.stringify({ userId: '', amount: 12.5, currency: 'euro', admin: true }),
      });
      expect(response.status).toBe(400);
      expect(response.body.fieldErrors.map((f: { path: string }) => f.path).sort()).toEqual([
        'admin',
        'amount',
        'currency',
        'userId',
      ]);
    });

    it('answers 400 for malformed JSON, without a stack trace', async () => {
      const response = await call('/orders', { body: '{"userId": "u-1",' });
      expect(response.status).toBe(400);
      expect(response.text).not.toMatch(/\bat \S+ \(|node_modules|\.ts:\d+/);
    });

    it('answers 413 for a body over 16 kB', async () => {
      const response = await call('/orders', {
        body: JSON.stringify({
          userId: 'u-1',
          amount: 1,
          currency: 'EUR',
          pad: 'x'.repeat(17_000),
        }),
      });
      expect(response.status).toBe(413);
      expect(response.text).not.toMatch(/node_modules/);
    });

    it('answers 400 to a body that is not JSON at all', async () => {
      const response = await call('/orders', {
        body: 'userId=u-1',
        headers: { 'content-type': 'text/plain' },
      });
      expect(response.status).toBe(400);
    });
  });

  it('documents every endpoint in the OpenAPI document at /docs-json', async () => {
    const document = (await call('/docs-json')).body as { paths: Record<string, object> };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/orders',
        '/orders/{id}',
        '/orders/{id}/pay',
        '/orders/{id}/cancel',
        '/payments/callback',
      ]),
    );
    expect((await call('/docs')).status).toBe(200);
  });
});
