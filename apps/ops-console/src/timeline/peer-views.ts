import type { AggregateOutboxRow } from '@outbox-inbox/outbox';

/**
 * The parts of other services' answers the timeline reads. Apps do not import each other, so
 * these restate the fields used; the services' own types are the reference.
 */

/** An outbox row (GET /outbox/aggregates/:type/:id and the services' order histories). */
export type OutboxRowView = Omit<AggregateOutboxRow, 'nextRetryAt'>;

/** An order (GET /orders/:id on the order-service). */
export interface OrderView {
  id: string;
  userId: string;
  amount: number;
  currency: string;
  status: string;
  version: number;
  payOrderId: string | null;
  closeReason: string | null;
  createdAt: string;
  updatedAt: string;
  paidAt: string | null;
  cancelledAt: string | null;
}

/** A recorded state change of an order. */
export interface OrderTransitionView {
  version: number;
  status: string;
  eventType: string;
  cause: string | null;
  occurredAt: string;
}

/** A pay callback whose signature verified, as the order-service recorded it. */
export interface PayCallbackView {
  notifyId: string;
  payOrderId: string;
  amount: number;
  currency: string;
  /** SUCCESS or FAILED, as the provider notified it. */
  notifiedStatus: 'SUCCESS' | 'FAILED';
  /** accepted, duplicate, late or refused. */
  verdict: string;
  /** The HTTP status the order-service answered. */
  answerStatus: number;
  detail: string | null;
  signedAt: string;
  receivedAt: string;
}

/** GET /orders/:id/history on the order-service. */
export interface OrderHistoryView {
  order: OrderView;
  callbacks: PayCallbackView[];
  transitions: OrderTransitionView[];
  outbox: OutboxRowView[];
}

/** An inbox row of a consumer (GET /inbox/deliveries). */
export interface InboxDeliveryView {
  consumer: string;
  eventKey: string;
  eventType: string;
  /** applied, ignored, stale, parked, or skipped (on purpose, with `reason`). */
  outcome: string;
  reason?: string;
  processedAt: string;
  duplicateCount: number;
  lastDuplicateAt: string | null;
}

/** GET /fulfillments/orders/:orderId/timeline on the fulfillment-service. */
export interface FulfillmentTimelineView {
  orderId: string;
  fulfillment: {
    id: string;
    status: string;
    attempts: number;
    lastError: string | null;
    couponCode: string | null;
    couponValue: number;
    currency: string;
    createdAt: string;
    updatedAt: string;
  } | null;
  transitions: Array<{
    version: number;
    status: string;
    attempts: number;
    lastError: string | null;
    occurredAt: string;
  }>;
  outbox: OutboxRowView[];
  inbox: InboxDeliveryView[];
}

/** GET /coupons/:code on the coupon provider. */
export interface CouponGrantView {
  couponCode: string;
  idempotencyKey: string;
  value: number;
  currency: string;
  status: string;
  grantedAt: string;
  revokedAt: string | null;
}

/** GET /ledger/orders/:orderId/timeline on the accounting-service. */
export interface LedgerTimelineView {
  orderId: string;
  ledger: {
    journals: Array<{
      id: string;
      sourceEventKey: string;
      kind: string;
      currency: string;
      total: string;
      description: string;
      createdAt: string;
      lines: Array<{ lineNo: number; accountCode: string; debit: string; credit: string }>;
    }>;
  } | null;
  inbox: InboxDeliveryView[];
}
