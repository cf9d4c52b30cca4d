import { randomUUID } from 'node:crypto';
import { mapConcurrently, requestJson } from '../../../scripts/demo/http-json';
import { PayNotification } from '../../../scripts/demo/pay-provider';
import { PayingOrder, TradingStack } from '../../support/trading-stack';

/** Share of the coupon provider's replies dropped after it commits a grant, as the demo does. */
const DROP_REPLY_RATE = 0.2;

/**
 * Orders through the whole chain, paid with duplicated callbacks (twice at once, then once
 * more in a shuffled order), while the coupon provider drops a share of its replies. What each
 * callback was told is recorded, Jepsen-style: an order whose callback was answered 2xx is
 * acknowledged, and the chain owes it its effects; any other answer is kept to be reported.
 */
export class OrderTraffic {
  /** Orders opened (CREATED → PAYING). */
  readonly opened: string[] = [];
  /** Orders at least one of whose callbacks was answered 2xx. */
  readonly acknowledged = new Set<string>();
  /** Every callback's answer by HTTP status (0: no answer, the connection failed). */
  readonly answers: Record<number, number> = {};

  constructor(private readonly chain: TradingStack) {}

  /** Switches the coupon provider's reply drops on (`rate`) or off (0). */
  async dropCouponReplies(rate = DROP_REPLY_RATE): Promise<void> {
    const { status } = await requestJson(`${this.chain.url('coupon-provider')}/faults`, {
      method: 'PUT',
      body: { dropReplyRate: rate },
      headers: this.chain.opsHeaders,
    });
    if (status !== 200) throw new Error(`PUT /faults answered ${status}`);
  }

  /** Opens `count` orders and delivers each one's callbacks; resolves when all are answered. */
  async drive(count: number): Promise<void> {
    const orders = await this.open(count);
    const provider = this.chain.provider;
    const notifications = orders.map((o) => provider.notification(o));
    const deliveries = [
      ...notifications.flatMap((n) => [n, n]),
      ...[...notifications].sort(() => Math.random() - 0.5),
    ];
    await mapConcurrently(deliveries, 8, (n) => this.deliver(n));
  }

  /** Answers other than 2xx, by status: empty when every callback was acknowledged. */
  failedAnswers(): Record<number, number> {
    return Object.fromEntries(
      Object.entries(this.answers).filter(([status]) => !/^2\d\d$/.test(status)),
    );
  }

  private async deliver(notification: PayNotification): Promise<void> {
    const status = await this.chain.provider.deliver(notification).catch(() => 0);
    this.answers[status] = (this.answers[status] ?? 0) + 1;
    if (status >= 200 && status < 300) this.acknowledged.add(notification.orderId);
  }

  private async open(count: number): Promise<PayingOrder[]> {
    const base = this.chain.url('order-service');
    return mapConcurrently(Array.from({ length: count }), 4, async (_, i) => {
      const created = await requestJson<{ id: string }>(`${base}/orders`, {
        body: { userId: `u${i % 7}`, amount: 1_000 + 37 * i, currency: i % 3 ? 'EUR' : 'USD' },
        headers: { 'idempotency-key': randomUUID() },
      });
      if (created.status !== 201) throw new Error(`POST /orders answered ${created.status}`);
      const paying = await requestJson<PayingOrder>(`${base}/orders/${created.body.id}/pay`, {
        method: 'POST',
      });
      if (paying.status !== 200) throw new Error(`POST /orders/:id/pay answered ${paying.status}`);
      this.opened.push(paying.body.id);
      return paying.body;
    });
  }
}
