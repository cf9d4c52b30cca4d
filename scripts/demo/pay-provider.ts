import { createHmac, randomUUID } from 'node:crypto';
import { requestJson } from './http-json';

/** A payment notification, as the provider sends it. */
export interface PayNotification {
  notifyId: string;
  payOrderId: string;
  orderId: string;
  amount: number;
  currency: string;
  status: 'SUCCESS' | 'FAILED';
  paidAt: string;
}

/**
 * The payment provider's side of the callback: it signs `<timestamp>.<raw body>` with the
 * shared secret (hex HMAC-SHA256) and delivers at least once.
 */
export class SimulatedPayProvider {
  constructor(
    private readonly orderServiceUrl: string,
    private readonly secret: string,
  ) {}

  notification(order: {
    id: string;
    payOrderId: string;
    amount: number;
    currency: string;
  }): PayNotification {
    return {
      notifyId: `ntf_${randomUUID()}`,
      payOrderId: order.payOrderId,
      orderId: order.id,
      amount: order.amount,
      currency: order.currency,
      status: 'SUCCESS',
      paidAt: new Date().toISOString(),
    };
  }

  /** Delivers one copy; `ageSeconds` back-dates the signature timestamp (a late retry). */
  async deliver(notification: PayNotification, ageSeconds = 0): Promise<number> {
    const rawBody = JSON.stringify(notification);
    const timestamp = String(Math.floor(Date.now() / 1000) - ageSeconds);
    const signature = createHmac('sha256', this.secret)
      .update(`${timestamp}.${rawBody}`)
      .digest('hex');
    const { status } = await requestJson(`${this.orderServiceUrl}/payments/callback`, {
      rawBody,
      headers: { 'x-pay-timestamp': timestamp, 'x-pay-signature': signature },
    });
    return status;
  }
}
