import { BadGatewayException, Inject, Injectable } from '@nestjs/common';
import { OrderTimeline, timelineEvents } from './order-timeline';
import { getPeerJson, PEER_OPTIONS, PeerOptions, PeerSection } from './peer-client';
import {
  CouponGrantView,
  FulfillmentTimelineView,
  LedgerTimelineView,
  OrderHistoryView,
} from './peer-views';

/**
 * Assembles an order's causal chain over HTTP: the order-service's history (verified pay
 * callbacks, transitions, outbox rows), the fulfillment-service's (transitions, outbox, inbox),
 * the coupon grant, and the accounting-service's (inbox, journals). The order-service's part is
 * needed; each other part may be `unavailable`. Our services get the caller's Authorization
 * header, so they see the operator who asked.
 */
@Injectable()
export class OrderTimelineService {
  constructor(@Inject(PEER_OPTIONS) private readonly peers: PeerOptions) {}

  /** The timeline, or undefined when the order does not exist. */
  async read(
    orderId: string,
    authorization: string | undefined,
  ): Promise<OrderTimeline | undefined> {
    const { orderUrl, fulfillmentUrl, accountingUrl, couponProviderUrl, timeoutMs } = this.peers;
    // Our services want the operator token; the coupon provider is a third party: never send it.
    const ours = { timeoutMs, authorization };
    const [history, fulfillment] = await Promise.all([
      getPeerJson<OrderHistoryView | null>(`${orderUrl}/orders/${orderId}/history`, {
        ...ours,
        notFoundAs: { value: null },
      }),
      getPeerJson<FulfillmentTimelineView>(
        `${fulfillmentUrl}/fulfillments/orders/${orderId}/timeline`,
        ours,
      ),
    ]);
    if (history.status !== 'ok') throw new BadGatewayException(history.error);
    if (history.data === null) return undefined;
    const { order, callbacks, transitions, outbox } = history.data;
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
      order,
      sections,
      events: timelineEvents(sections),
    };
  }
}
