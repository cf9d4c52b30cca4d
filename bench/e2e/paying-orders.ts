import { randomUUID } from 'node:crypto';
import { mapConcurrently, requestJson } from '../../scripts/demo/http-json';

/** An order moved to PAYING through the order-service's API. */
export interface PayingOrder {
  id: string;
  payOrderId: string;
  amount: number;
  currency: string;
}

/** Creates `count` orders (POST /orders) and starts paying each (POST /orders/:id/pay). */
export async function createPayingOrders(
  orderServiceUrl: string,
  count: number,
  concurrency = 8,
): Promise<PayingOrder[]> {
  return mapConcurrently(
    Array.from({ length: count }, (_, i) => i),
    concurrency,
    async (i) => {
      const created = await requestJson<{ id: string }>(`${orderServiceUrl}/orders`, {
        body: { userId: `bench-${i % 50}`, amount: 1_000 + i, currency: 'EUR' },
        headers: { 'idempotency-key': randomUUID() },
      });
      if (created.status !== 201) throw new Error(`POST /orders answered ${created.status}`);
      const paying = await requestJson<PayingOrder>(
        `${orderServiceUrl}/orders/${created.body.id}/pay`,
        {
          method: 'POST',
        },
      );
      if (paying.status !== 200) throw new Error(`POST /orders/:id/pay answered ${paying.status}`);
      return paying.body;
    },
  );
}
