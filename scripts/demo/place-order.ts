import { randomUUID } from 'node:crypto';
import { DemoSettings } from './demo-settings';
import { expectOk, requestJson } from './http-json';

/** An order as the order-service answers it once its payment started. */
export interface PayingOrder {
  id: string;
  amount: number;
  currency: string;
  payOrderId: string;
}

/** Creates an order (with a fresh Idempotency-Key) and starts its payment. */
export async function placeOrder(
  settings: DemoSettings,
  order: { userId: string; amount: number; currency: string },
): Promise<PayingOrder> {
  const created = await expectOk<{ id: string }>(
    requestJson(`${settings.urls.order}/orders`, {
      body: order,
      headers: { 'idempotency-key': randomUUID() },
    }),
    'create order',
  );
  return expectOk<PayingOrder>(
    requestJson(`${settings.urls.order}/orders/${created.id}/pay`, { method: 'POST' }),
    'pay',
  );
}
