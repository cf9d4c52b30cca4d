import { Inject, Injectable } from '@nestjs/common';
import { OutboxOperations } from '@outbox-inbox/outbox';
import { DataSource } from 'typeorm';
import { OrderTransitionsRepository } from '../orders/order-transitions.repository';
import { OrdersRepository } from '../orders/orders.repository';
import { toOrderView } from '../orders/order.view';
import { PayCallbacksRepository } from '../payments/pay-callbacks.repository';
import { OrderTimeline, timelineEvents } from './order-timeline';
import { getPeerJson, PEER_OPTIONS, PeerOptions, PeerSection } from './peer-client';
import { CouponGrantView, FulfillmentTimelineView, LedgerTimelineView } from './peer-views';

/**
 * Assembles an order's causal chain: its own verified pay callbacks, transitions and outbox
 * rows, then over HTTP the fulfillment-service's (transitions, outbox, inbox), the coupon
 * grant, and the accounting-service's (inbox, journals). Each remote part may be `unavailable`.
 */
@Injectable()
export class OrderTimelineService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
    private readonly transitions: OrderTransitionsRepository,
    private readonly callbacks: PayCallbacksRepository,
    private readonly outbox: OutboxOperations,
    @Inject(PEER_OPTIONS) private readonly peers: PeerOptions,
  ) {}

  /** The timeline, or undefined when the order does not exist. */
  async read(orderId: string): Promise<OrderTimeline | undefined> {
    const order = await this.orders.findById(this.dataSource.manager, orderId);
    if (!order) return undefined;
    const { fulfillmentUrl, accountingUrl, couponProviderUrl, timeoutMs } = this.peers;
    // Our services want the operator token; the coupon provider is a third party: never send it.
    const ours = { timeoutMs, token: this.peers.opsApiToken };
    const [callbacks, transitions, outbox, fulfillment] = await Promise.all([
      this.callbacks.listOfOrder(this.dataSource.manager, orderId),
      this.transitions.list(this.dataSource.manager, orderId),
      this.outbox.rowsOfAggregate('Order', orderId),
      getPeerJson<FulfillmentTimelineView>(
        `${fulfillmentUrl}/fulfillments/orders/${orderId}/timeline`,
        ours,
      ),
    ]);
    const found = fulfillment.status === 'ok' ? fulfillment.data.fulfillment : null;
    const couponCode = found?.couponCode;
    const [coupon, accounting] = await Promise.all([
      fulfillment.status === 'unavailable'
        ? ({
            status: 'unavailable',
            error: 'the coupon code comes from the fulfillment-service, which is unavailable',
          } as const)
        : couponCode
          ? getPeerJson<CouponGrantView | null>(
              `${couponProviderUrl}/coupons/${encodeURIComponent(couponCode)}`,
              { timeoutMs },
            )
          : ({ status: 'ok', data: null } as PeerSection<CouponGrantView | null>),
      getPeerJson<LedgerTimelineView>(
        `${accountingUrl}/ledger/orders/${orderId}/timeline${found ? `?fulfillmentId=${found.id}` : ''}`,
        ours,
      ),
    ]);
    const sections = { order: { callbacks, transitions, outbox }, fulfillment, coupon, accounting };
    return {
      orderId,
      generatedAt: new Date().toISOString(),
      order: toOrderView(order),
      sections,
      events: timelineEvents(sections),
    };
  }
}
