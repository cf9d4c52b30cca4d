import { startTestEnvironment, TestEnvironment } from '@outbox-inbox/test-kit';
import {
  JsonResponse,
  outboxRowsOf,
  request,
  RunningOrderService,
  sendCallback,
  startOrderService,
} from '../../test/order-service.harness';

interface PayingOrder {
  id: string;
  payOrderId: string;
}

describe('order-service HTTP: POST /payments/callback', () => {
  let env: TestEnvironment;
  let service: RunningOrderService;
  let url: string;
  const statuses: number[] = [];
  let notifySeq = 0;

  function record(response: JsonResponse): JsonResponse {
    statuses.push(response.status);
    return response;
  }

  async function payingOrder(amount = 1999, currency = 'EUR'): Promise<PayingOrder> {
    const created = await request(`${url}/orders`, {
      body: JSON.stringify({ userId: 'u-pay', amount, currency }),
    });
    const paying = await request(`${url}/orders/${created.body.id}/pay`, { method: 'POST' });
    expect(paying.body.status).toBe('PAYING');
    return { id: paying.body.id, payOrderId: paying.body.payOrderId };
  }

  function notification(order: PayingOrder, overrides: Record<string, unknown> = {}): string {
    return JSON.stringify({
      notifyId: `n-${++notifySeq}`,
      payOrderId: order.payOrderId,
      orderId: order.id,
      amount: 1999,
      currency: 'EUR',
      status: 'SUCCESS',
      paidAt: '2026-12-01T10:00:00Z',
      ...overrides,
    });
  }

  async function callback(body: string, options?: Parameters<typeof sendCallback>[2]) {
    return record(await sendCallback(url, body, options));
  }

  async function statusOf(order: PayingOrder): Promise<string> {
    return (await request(`${url}/orders/${order.id}`)).body.status;
  }

  async function eventsOf(order: PayingOrder): Promise<string[]> {
    return (await outboxRowsOf(service.dataSource, order.id)).map((e) => e.eventType);
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
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });

  describe('a valid SUCCESS notification', () => {
    it('answers 200 after moving the order to PAID with exactly one OrderPaid (version 3)', async () => {
      const order = await payingOrder();
      const body = notification(order);
      const response = await callback(body);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        result: 'SUCCESS',
        orderId: order.id,
        payOrderId: order.payOrderId,
        orderStatus: 'PAID',
      });
      expect(await statusOf(order)).toBe('PAID');
      const events = await outboxRowsOf(service.dataSource, order.id);
      expect(events.map((e) => [e.eventType, e.version])).toEqual([
        ['OrderCreated', 1],
        ['OrderPaymentStarted', 2],
        ['OrderPaid', 3],
      ]);
      expect(events[2].payload).toMatchObject({
        orderId: order.id,
        payOrderId: order.payOrderId,
        notifyId: JSON.parse(body).notifyId,
        amount: 1999,
        currency: 'EUR',
        paidAt: '2026-12-01T10:00:00.000Z',
      });
      // A PAID order is final: neither cancel nor pay again.
      const cancel = record(await request(`${url}/orders/${order.id}/cancel`, { method: 'POST' }));
      const pay = record(await request(`${url}/orders/${order.id}/pay`, { method: 'POST' }));
      expect([cancel.status, pay.status]).toEqual([409, 409]);
      expect(await eventsOf(order)).toEqual(['OrderCreated', 'OrderPaymentStarted', 'OrderPaid']);
    });

    it('answers a repeat of the same notification with the same answer and no second event', async () => {
      const order = await payingOrder();
      const body = notification(order);
      const first = await callback(body);
      const second = await callback(body);
      expect(second.status).toBe(200);
      expect(second.text).toBe(first.text);
      expect(await eventsOf(order)).toEqual(['OrderCreated', 'OrderPaymentStarted', 'OrderPaid']);
    });

    it('gives another notification of the payment that already paid the order the same answer, and no event', async () => {
      const order = await payingOrder();
      const first = await callback(notification(order));
      const other = await callback(notification(order));
      expect(other.status).toBe(200);
      expect(other.text).toBe(first.text);
      expect(await eventsOf(order)).toEqual(['OrderCreated', 'OrderPaymentStarted', 'OrderPaid']);
    });

    it('turns 20 concurrent identical copies into one transition and one OrderPaid', async () => {
      const order = await payingOrder();
      const body = notification(order);
      const responses = await Promise.all(Array.from({ length: 20 }, () => callback(body)));
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(new Set(responses.map((r) => r.text)).size).toBe(1);
      expect(await eventsOf(order)).toEqual(['OrderCreated', 'OrderPaymentStarted', 'OrderPaid']);
      const [row] = await service.dataSource.query(
        'SELECT COUNT(*) n FROM t_pay_notification WHERE order_id = ?',
        [order.id],
      );
      expect(Number(row.n)).toBe(1);
    });

    it('turns 20 concurrent notifications with distinct ids of one payment into one OrderPaid', async () => {
      const order = await payingOrder();
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => callback(notification(order))),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(await eventsOf(order)).toEqual(['OrderCreated', 'OrderPaymentStarted', 'OrderPaid']);
      const rows: Array<{ changed_order: number }> = await service.dataSource.query(
        'SELECT changed_order FROM t_pay_notification WHERE order_id = ?',
        [order.id],
      );
      expect(rows).toHaveLength(20);
      expect(rows.filter((r) => Number(r.changed_order) === 1)).toHaveLength(1);
    });
  });

  it('moves the order to PAYMENT_FAILED on FAILED, with one OrderPaymentFailed', async () => {
    const order = await payingOrder();
    const body = notification(order, { status: 'FAILED' });
    expect((await callback(body)).body).toMatchObject({ orderStatus: 'PAYMENT_FAILED' });
    expect((await callback(body)).status).toBe(200);
    expect(await eventsOf(order)).toEqual([
      'OrderCreated',
      'OrderPaymentStarted',
      'OrderPaymentFailed',
    ]);
  });

  describe('rejections change nothing', () => {
    let order: PayingOrder;

    beforeEach(async () => {
      order = await payingOrder();
    });

    afterEach(async () => {
      expect(await statusOf(order)).toBe('PAYING');
      expect(await eventsOf(order)).toEqual(['OrderCreated', 'OrderPaymentStarted']);
    });

    it('401 for a timestamp more than 300 s old or ahead', async () => {
      const now = Math.floor(Date.now() / 1000);
      expect((await callback(notification(order), { timestamp: now - 301 })).status).toBe(401);
      // A few seconds past the bound: the server reads its clock after `now`, a second later at most.
      expect((await callback(notification(order), { timestamp: now + 305 })).status).toBe(401);
    });

    it('401 for a body changed by one byte after signing', async () => {
      const signed = notification(order);
      const changed = signed.replace('"amount":1999', '"amount":1998');
      expect(changed.length).toBe(signed.length);
      expect((await callback(changed, { signedBody: signed })).status).toBe(401);
    });

    it('401 for another secret, or missing headers, before looking at the body', async () => {
      expect((await callback(notification(order), { secret: 'x'.repeat(24) })).status).toBe(401);
      const bare = record(await request(`${url}/payments/callback`, { body: notification(order) }));
      expect(bare.status).toBe(401);
      const garbage = await callback('{not json', { secret: 'x'.repeat(24) });
      expect(garbage.status).toBe(401);
    });

    it('422 for an amount or a currency different from the order', async () => {
      expect((await callback(notification(order, { amount: 1998 }))).status).toBe(422);
      expect((await callback(notification(order, { currency: 'USD' }))).status).toBe(422);
    });

    it('404 for an unknown order or a payOrderId the order did not start', async () => {
      expect((await callback(notification(order, { orderId: '999999999' }))).status).toBe(404);
      expect((await callback(notification(order, { payOrderId: 'pay_other' }))).status).toBe(404);
    });

    it('400 for malformed JSON', async () => {
      const response = await callback('{"notifyId": "n-x",');
      expect(response.status).toBe(400);
      expect(response.text).not.toMatch(/node_modules|\.ts:\d+/);
    });

    it('400 with field errors for missing, extra and mistyped fields', async () => {
      const body = JSON.parse(notification(order, { amount: '1999', status: 'PAID', extra: 1 }));
      delete body.paidAt;
      const response = await callback(JSON.stringify(body));
      expect(response.status).toBe(400);
      expect(response.body.fieldErrors.map((f: { path: string }) => f.path).sort()).toEqual([
        'amount',
        'extra',
        'paidAt',
        'status',
      ]);
      expect((await callback('[]')).status).toBe(400);
      expect((await callback('')).status).toBe(400);
    });

    it('413 for a body over 16 kB', async () => {
      const response = await callback(notification(order, { pad: 'x'.repeat(17_000) }));
      expect(response.status).toBe(413);
    });

    it('422 when a processed notifyId comes back naming another payment', async () => {
      const other = await payingOrder();
      const first = notification(other);
      expect((await callback(first)).status).toBe(200);
      const reused = notification(order, { notifyId: JSON.parse(first).notifyId });
      expect((await callback(reused)).status).toBe(422);
    });
  });

  describe('a processed notifyId that comes back with other values', () => {
    async function notificationRow(notifyId: string): Promise<unknown> {
      const [row] = await service.dataSource.query(
        'SELECT * FROM t_pay_notification WHERE notify_id = ?',
        [notifyId],
      );
      return row;
    }

    it.each([
      ['amount', { amount: 1998 }],
      ['currency', { currency: 'USD' }],
      ['status', { status: 'FAILED' }],
    ])(
      'gets 422 for another %s, with a correct signature, and changes nothing',
      async (field, change) => {
        const order = await payingOrder();
        const body = notification(order);
        const { notifyId } = JSON.parse(body) as { notifyId: string };
        expect((await callback(body)).status).toBe(200);
        const stored = await notificationRow(notifyId);

        const repeat = await callback(JSON.stringify({ ...JSON.parse(body), ...change }));
        expect(repeat.status).toBe(422);
        expect(repeat.body.message).toContain(field);
        expect(await statusOf(order)).toBe('PAID');
        expect(await eventsOf(order)).toEqual(['OrderCreated', 'OrderPaymentStarted', 'OrderPaid']);
        expect(await notificationRow(notifyId)).toEqual(stored);
        // The same bytes as the first copy still get the first answer.
        expect((await callback(body)).status).toBe(200);
      },
    );

    it('gets 422 whatever the timing: two copies with another status race, one wins, the other is refused', async () => {
      const orders = await Promise.all(Array.from({ length: 6 }, () => payingOrder()));
      for (const order of orders) {
        const success = notification(order);
        const failed = JSON.stringify({ ...JSON.parse(success), status: 'FAILED' });
        const [a, b] = await Promise.all([callback(success), callback(failed)]);
        expect([a.status, b.status].sort()).toEqual([200, 422]);
        const winner = a.status === 200 ? 'PAID' : 'PAYMENT_FAILED';
        expect(await statusOf(order)).toBe(winner);
        expect(await eventsOf(order)).toEqual([
          'OrderCreated',
          'OrderPaymentStarted',
          winner === 'PAID' ? 'OrderPaid' : 'OrderPaymentFailed',
        ]);
      }
    });
  });

  it('409 for SUCCESS on an order cancelled meanwhile, and no OrderPaid', async () => {
    const order = await payingOrder();
    await request(`${url}/orders/${order.id}/cancel`, { method: 'POST' });
    expect((await callback(notification(order))).status).toBe(409);
    expect(await eventsOf(order)).toEqual([
      'OrderCreated',
      'OrderPaymentStarted',
      'OrderCancelled',
    ]);
  });
});
