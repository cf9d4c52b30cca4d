import { startTestEnvironment, TestEnvironment } from '@outbox-inbox/test-kit';
import {
  outboxRowsOf,
  request,
  RunningOrderService,
  sendCallback,
  startOrderService,
} from '../../test/order-service.harness';

const OLD_SECRET = 'the-old-callback-secret';
const NEW_SECRET = 'the-new-callback-secret';

/**
 * Issue 36, rotation without downtime: the provider moves from the old secret to the new one
 * while the order-service runs with both (PAY_CALLBACK_SECRET_PREVIOUS), and once the old one is
 * removed from the configuration, a callback signed with it is refused and changes nothing.
 * Over real HTTP on loopback, restarting the service on the same database between the steps.
 */
describe('order-service: rotating the pay callback secret', () => {
  let env: TestEnvironment;
  let service: RunningOrderService | undefined;
  let notifySeq = 0;

  beforeAll(async () => {
    env = await startTestEnvironment();
  });

  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  afterAll(async () => {
    await env?.stop();
  });

  async function payingOrder(url: string): Promise<{ id: string; payOrderId: string }> {
    const created = await request(`${url}/orders`, {
      body: JSON.stringify({ userId: 'u-rotation', amount: 1999, currency: 'EUR' }),
    });
    const paying = await request(`${url}/orders/${created.body.id}/pay`, { method: 'POST' });
    expect(paying.body.status).toBe('PAYING');
    return { id: paying.body.id, payOrderId: paying.body.payOrderId };
  }

  function success(order: { id: string; payOrderId: string }): string {
    return JSON.stringify({
      notifyId: `rotation-${++notifySeq}`,
      payOrderId: order.payOrderId,
      orderId: order.id,
      amount: 1999,
      currency: 'EUR',
      status: 'SUCCESS',
      paidAt: '2026-12-07T10:00:00Z',
    });
  }

  async function eventsOf(running: RunningOrderService, orderId: string): Promise<string[]> {
    return (await outboxRowsOf(running.dataSource, orderId)).map((e) => e.eventType);
  }

  it('accepts both secrets during the change, and only the new one once the old is removed', async () => {
    // During the change: the new secret is current, the old one previous.
    const during = await startOrderService(env, {
      variables: { PAY_CALLBACK_SECRET: NEW_SECRET, PAY_CALLBACK_SECRET_PREVIOUS: OLD_SECRET },
    });
    service = during;
    const paidWithOld = await payingOrder(during.baseUrl);
    const paidWithNew = await payingOrder(during.baseUrl);
    const waiting = await payingOrder(during.baseUrl);
    const byOld = await sendCallback(during.baseUrl, success(paidWithOld), { secret: OLD_SECRET });
    expect(byOld.status).toBe(200);
    expect(byOld.body).toMatchObject({ orderStatus: 'PAID' });
    const byNew = await sendCallback(during.baseUrl, success(paidWithNew), { secret: NEW_SECRET });
    expect(byNew.status).toBe(200);
    for (const order of [paidWithOld, paidWithNew]) {
      expect((await request(`${during.baseUrl}/orders/${order.id}`)).body.status).toBe('PAID');
      expect(await eventsOf(during, order.id)).toEqual([
        'OrderCreated',
        'OrderPaymentStarted',
        'OrderPaid',
      ]);
    }
    const database = during.database;
    await during.close();
    service = undefined;

    // After the change: the old secret is gone from the configuration.
    const after = await startOrderService(env, {
      database,
      variables: { PAY_CALLBACK_SECRET: NEW_SECRET },
    });
    service = after;
    const refused = await sendCallback(after.baseUrl, success(waiting), { secret: OLD_SECRET });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ message: 'callback rejected: BAD_SIGNATURE' });
    expect((await request(`${after.baseUrl}/orders/${waiting.id}`)).body.status).toBe('PAYING');
    expect(await eventsOf(after, waiting.id)).toEqual(['OrderCreated', 'OrderPaymentStarted']);
    const notices: Array<{ n: number }> = await after.dataSource.query(
      'SELECT COUNT(*) AS n FROM t_pay_notification',
    );
    expect(Number(notices[0].n)).toBe(2); // the two accepted during the change, not this one

    const accepted = await sendCallback(after.baseUrl, success(waiting), { secret: NEW_SECRET });
    expect(accepted.status).toBe(200);
    expect((await request(`${after.baseUrl}/orders/${waiting.id}`)).body.status).toBe('PAID');
    expect(await eventsOf(after, waiting.id)).toEqual([
      'OrderCreated',
      'OrderPaymentStarted',
      'OrderPaid',
    ]);
  });
});
