import type { AggregateOutboxRow } from '@outbox-inbox/outbox';

/**
 * The parts of other services' answers the timeline reads. Apps do not import each other, so
 * these restate the fields used; the services' own types are the reference.
 */

/** An outbox row (GET /outbox/aggregates/:type/:id and the fulfillment timeline). */
export type OutboxRowView = Omit<AggregateOutboxRow, 'nextRetryAt'>;

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
