import { randomBytes } from 'node:crypto';
import { EventEnvelope } from '@outbox-inbox/messaging';
import { startTestEnvironment, TestEnvironment, waitFor } from '@outbox-inbox/test-kit';
import {
  request,
  RunningOrderService,
  sendCallback,
  startOrderService,
} from '../test/order-service.harness';

describe('order-service with its outbox relay', () => {
  let env: TestEnvironment;
  let service: RunningOrderService;
  const prefix = `os${randomBytes(3).toString('hex')}.`;
  const topic = `${prefix}order.events`;

  beforeAll(async () => {
    env = await startTestEnvironment();
    // The topic the service derives from TOPIC_PREFIX: topics exist before anyone produces.
    await env.infra.kafka.createTopics({ [topic]: 3 });
    service = await startOrderService(env, { outboxRelay: true, topicPrefix: prefix });
  });

  afterAll(async () => {
    await service?.close();
    await env?.stop();
  });

  it('publishes an order paid by duplicated callbacks as versions 1, 2, 3 under the order id', async () => {
    const url = service.baseUrl;
    const created = await request(`${url}/orders`, {
      body: JSON.stringify({ userId: 'u-relay', amount: 2500, currency: 'EUR' }),
    });
    const orderId: string = created.body.id;
    const paying = await request(`${url}/orders/${orderId}/pay`, { method: 'POST' });
    const notification = JSON.stringify({
      notifyId: 'n-relay',
      payOrderId: paying.body.payOrderId,
      orderId,
      amount: 2500,
      currency: 'EUR',
      status: 'SUCCESS',
      paidAt: '2026-12-01T10:00:00Z',
    });
    const answers = await Promise.all([1, 2, 3].map(() => sendCallback(url, notification)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);

    const received: Array<{ key: string; partition: number; envelope: EventEnvelope }> = [];
    const consumer = env.kafka.consumer({ groupId: `g-${topic}` });
    try {
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message, partition }) => {
          received.push({
            key: String(message.key),
            partition,
            envelope: JSON.parse(String(message.value)) as EventEnvelope,
          });
        },
      });
      await waitFor(() => received.some((m) => m.envelope.eventType === 'OrderPaid'), {
        description: 'OrderPaid consumed',
      });
    } finally {
      await consumer.disconnect();
    }

    const keys = new Set(received.map((m) => m.envelope.eventKey));
    expect(keys).toEqual(
      new Set([
        `OrderCreated:${orderId}:1`,
        `OrderPaymentStarted:${orderId}:2`,
        `OrderPaid:${orderId}:3`,
      ]),
    );
    expect(new Set(received.map((m) => m.key))).toEqual(new Set([orderId]));
    expect(new Set(received.map((m) => m.partition)).size).toBe(1);
    const [sent] = await service.dataSource.query(
      "SELECT COUNT(*) AS n FROM t_outbox WHERE status = 'SENT'",
    );
    expect(Number(sent.n)).toBe(3);
  });
});
