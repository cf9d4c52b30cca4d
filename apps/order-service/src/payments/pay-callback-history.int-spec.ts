import { startTestEnvironment, TEST_OPS_API_TOKEN, TestEnvironment } from '@outbox-inbox/test-kit';
import {
  request,
  RunningOrderService,
  sendCallback,
  startOrderService,
} from '../../test/order-service.harness';

interface CallbackView {
  notifyId: string;
  verdict: string;
  answerStatus: number;
  notifiedStatus: string;
  amount: number;
  signedAt: string;
  receivedAt: string;
}
interface History {
  callbacks: CallbackView[];
  transitions: Array<{ status: string; occurredAt: string }>;
}

/**
 * The pay callbacks an operator sees in an order's history (GET /orders/:id/history, which the
 * ops console draws on the order's timeline): each one the provider signed (accepted,
 * duplicate, late, refused), with what we answered. A callback whose signature did not verify
 * is tied to no order: only counted in pay_callbacks_total.
 */
describe('order-service: verified pay callbacks in the order history', () => {
  let env: TestEnvironment;
  let service: RunningOrderService;
  let url: string;
  const operator = { authorization: `Bearer ${TEST_OPS_API_TOKEN}` };
  let notifySeq = 0;

  async function payingOrder(): Promise<{ id: string; payOrderId: string }> {
    const created = await request(`${url}/orders`, {
      body: JSON.stringify({ userId: 'u-callbacks', amount: 1999, currency: 'EUR' }),
    });
    const paying = await request(`${url}/orders/${created.body.id}/pay`, { method: 'POST' });
    expect(paying.status).toBe(200);
    return { id: paying.body.id, payOrderId: paying.body.payOrderId };
  }
  function notification(order: { id: string; payOrderId: string }): string {
    return JSON.stringify({
      notifyId: `cb-${++notifySeq}`,
      payOrderId: order.payOrderId,
      orderId: order.id,
      amount: 1999,
      currency: 'EUR',
      status: 'SUCCESS',
      paidAt: '2026-12-01T10:00:00Z',
    });
  }
  const notifyIdOf = (body: string) => (JSON.parse(body) as { notifyId: string }).notifyId;
  async function history(orderId: string): Promise<History> {
    const response = await request(`${url}/orders/${orderId}/history`, { headers: operator });
    expect(response.status).toBe(200);
    return response.body as History;
  }
  async function counted(outcome: string): Promise<number> {
    const response = await fetch(`${url}/metrics`, { headers: operator });
    const text = await response.text();
    const line = text
      .split('\n')
      .find((l) => l.startsWith('pay_callbacks_total{') && l.includes(`outcome="${outcome}"`));
    return line === undefined ? 0 : Number(line.split(' ').pop());
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

  it('shows the accepted callback, its duplicates and a late copy, in the order they came', async () => {
    const order = await payingOrder();
    const first = notification(order);
    const other = notification(order);
    const late = notification(order);
    const forged = notification(order);
    const now = Math.floor(Date.now() / 1000);
    const badSignatures = await counted('bad_signature');

    expect((await sendCallback(url, first)).status).toBe(200);
    expect((await sendCallback(url, first)).status).toBe(200); // the same notifyId again
    expect((await sendCallback(url, other)).status).toBe(200); // another one of the payment
    expect((await sendCallback(url, late, { timestamp: now - 600 })).status).toBe(401);
    expect((await sendCallback(url, forged, { secret: 'x'.repeat(24) })).status).toBe(401);

    const { callbacks, transitions } = await history(order.id);
    expect(callbacks.map((c) => [c.notifyId, c.verdict, c.answerStatus])).toEqual([
      [notifyIdOf(first), 'accepted', 200],
      [notifyIdOf(first), 'duplicate', 200],
      [notifyIdOf(other), 'duplicate', 200],
      [notifyIdOf(late), 'late', 401],
    ]);
    // Signed in whole seconds: 600 s before, or 601 when a second turned in between.
    const lateBy = (Date.parse(callbacks[3].receivedAt) - Date.parse(callbacks[3].signedAt)) / 1000;
    expect(Math.round(lateBy)).toBeGreaterThanOrEqual(600);
    expect(Math.round(lateBy)).toBeLessThanOrEqual(601);
    // The accepted callback made the PAID transition, at the same instant.
    const paid = transitions.find((t) => t.status === 'PAID');
    expect(paid?.occurredAt).toBe(callbacks[0].receivedAt);
    // The forged one is in no history, only counted.
    expect(JSON.stringify(callbacks)).not.toContain(notifyIdOf(forged));
    expect(await counted('bad_signature')).toBe(badSignatures + 1);
  });

  it('still answers a late copy 401 when its record cannot be written', async () => {
    const order = await payingOrder();
    const lates = await counted('late');
    const now = Math.floor(Date.now() / 1000);
    await service.owner.query('RENAME TABLE t_pay_callback TO t_pay_callback_away');
    try {
      const late = await sendCallback(url, notification(order), { timestamp: now - 600 });
      expect(late.status).toBe(401);
    } finally {
      await service.owner.query('RENAME TABLE t_pay_callback_away TO t_pay_callback');
    }
    expect(await counted('late')).toBe(lates + 1);
    expect((await history(order.id)).callbacks).toEqual([]);
  });

  it('shows a refused callback with the status it got, and records none for an unknown order', async () => {
    const order = await payingOrder();
    const cancel = await request(`${url}/orders/${order.id}/cancel`, { method: 'POST' });
    expect(cancel.status).toBe(200);
    const refused = notification(order);
    expect((await sendCallback(url, refused)).status).toBe(409);
    const stranger = JSON.stringify({ ...JSON.parse(notification(order)), orderId: '999999999' });
    const unknownOrders = await counted('unknown_order');
    expect((await sendCallback(url, stranger)).status).toBe(404);

    const { callbacks } = await history(order.id);
    expect(callbacks).toEqual([
      expect.objectContaining({
        notifyId: notifyIdOf(refused),
        verdict: 'refused',
        answerStatus: 409,
        notifiedStatus: 'SUCCESS',
        amount: 1999,
      }),
    ]);
    const [row] = (await service.dataSource.query(
      'SELECT COUNT(*) AS n FROM t_pay_callback WHERE order_id = 999999999',
    )) as Array<{ n: string | number }>;
    expect(Number(row.n)).toBe(0);
    expect(await counted('unknown_order')).toBe(unknownOrders + 1);
  });
});
