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

/** How a test tampers with one delivery (a fraudster, a broken proxy, a clock far off). */
export interface DeliveryTampering {
  /** Signature timestamp, unix seconds; now by default. */
  timestamp?: number;
  /** Sign these bytes instead of the body sent (a body changed after signing). */
  signedBody?: string;
  /** Sign with another secret. */
  secret?: string;
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
    const timestamp = Math.floor(Date.now() / 1000) - ageSeconds;
    return (await this.send(JSON.stringify(notification), { timestamp })).status;
  }

  /**
   * POSTs `rawBody` exactly as given (any bytes: malformed, oversized, edited) to the callback,
   * signed as the provider signs unless `tampering` says otherwise; answers status and body.
   */
  send(
    rawBody: string,
    tampering: DeliveryTampering = {},
  ): Promise<{ status: number; body: unknown }> {
    const timestamp = String(tampering.timestamp ?? Math.floor(Date.now() / 1000));
    // Signed here as the provider documents it, not with the order-service's own function:
    // a shared helper would hide a signing bug from every test that uses this provider.
    const signature = createHmac('sha256', tampering.secret ?? this.secret)
      .update(`${timestamp}.${tampering.signedBody ?? rawBody}`)
      .digest('hex');
    return requestJson(`${this.orderServiceUrl}/payments/callback`, {
      rawBody,
      headers: { 'x-pay-timestamp': timestamp, 'x-pay-signature': signature },
    });
  }
}
