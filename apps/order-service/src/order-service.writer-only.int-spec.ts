import { startTestEnvironment, TestEnvironment } from '@outbox-inbox/test-kit';
import {
  outboxRowsOf,
  request,
  RunningOrderService,
  startOrderService,
} from '../test/order-service.harness';

describe('order-service as a writer-only process (OUTBOX_RELAY_ENABLED=false, no KAFKA_BROKERS)', () => {
  let env: TestEnvironment;
  let service: RunningOrderService | undefined;

  beforeAll(async () => {
    env = await startTestEnvironment();
  });

  afterAll(async () => {
    await service?.close();
    await env?.stop();
  });

  it('starts without any Kafka setting, takes orders and writes their outbox rows', async () => {
    service = await startOrderService(env, { writerOnly: true });
    const created = await request(`${service.baseUrl}/orders`, {
      body: JSON.stringify({ userId: 'u-writer', amount: 1200, currency: 'EUR' }),
    });
    expect(created.status).toBe(201);
    expect(await outboxRowsOf(service.dataSource, created.body.id)).toEqual([
      expect.objectContaining({ eventType: 'OrderCreated', version: 1 }),
    ]);
    const [{ n }] = (await service.dataSource.query(
      "SELECT COUNT(*) AS n FROM t_outbox WHERE status = 'NEW'",
    )) as Array<{ n: string }>;
    expect(Number(n)).toBe(1);
  });
});
