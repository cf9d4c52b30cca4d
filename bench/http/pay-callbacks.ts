import { createHmac, randomUUID } from 'node:crypto';
import { Pool } from 'mysql2/promise';
import { drive, LoadRequest, LoadResult } from '../lib/load';
import { OwnedOrder } from '../lib/statement-shapes';

/**
 * One signed SUCCESS callback per order, as the provider sends them: hex HMAC-SHA256 over
 * `<timestamp>.<body>`, signed just now (computed here, as the provider does, not with the
 * service's own code).
 */
export function signedCallbacks(secret: string, orders: OwnedOrder[]): LoadRequest[] {
  const timestamp = String(Math.floor(Date.now() / 1000));
  return orders.map((order) => {
    const body = JSON.stringify({
      notifyId: `ntf_${randomUUID()}`,
      payOrderId: order.payOrderId,
      orderId: order.id,
      amount: order.amount,
      currency: 'EUR',
      status: 'SUCCESS',
      paidAt: new Date().toISOString(),
    });
    return {
      method: 'POST',
      path: '/payments/callback',
      body,
      headers: {
        'content-type': 'application/json',
        'x-pay-timestamp': timestamp,
        'x-pay-signature': createHmac('sha256', secret)
          .update(`${timestamp}.${body}`)
          .digest('hex'),
      },
    };
  });
}

/** Delivers one callback per order over `connections` connections; every answer must be 200. */
export function callbackRound(
  url: string,
  secret: string,
  orders: OwnedOrder[],
  connections: number,
  onLastResponse?: () => void,
): Promise<LoadResult> {
  const requests = signedCallbacks(secret, orders);
  let next = 0;
  return drive({
    baseUrl: url,
    connections,
    amount: requests.length,
    onLastResponse,
    next: () => requests[next++ % requests.length],
  });
}

/** Waits until the service's relay has published everything (so the next round starts even). */
export async function drainOutbox(pool: Pool): Promise<void> {
  for (;;) {
    const [rows] = await pool.query(
      "SELECT COUNT(*) AS n FROM t_outbox WHERE status IN ('NEW', 'SENDING')",
    );
    if (Number((rows as Array<{ n: number }>)[0].n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Throws unless every order is PAID with exactly one OrderPaid event in the outbox. */
export async function expectAllPaidOnce(pool: Pool, orders: OwnedOrder[]): Promise<void> {
  const ids = orders.map((o) => o.id);
  const [rows] = await pool.query(
    `SELECT (SELECT COUNT(*) FROM t_order WHERE status = 'PAID' AND id IN (?)) AS paid,
            (SELECT COUNT(*) FROM t_outbox WHERE event_type = 'OrderPaid' AND aggregate_id IN (?)) AS events`,
    [ids, ids],
  );
  const counts = (rows as Array<{ paid: number; events: number }>)[0];
  if (Number(counts.paid) !== ids.length || Number(counts.events) !== ids.length) {
    throw new Error(`expected ${ids.length} PAID orders and events, got ${JSON.stringify(counts)}`);
  }
}
