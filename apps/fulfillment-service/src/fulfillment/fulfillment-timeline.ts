import { Injectable } from '@nestjs/common';
import { InboxDeliveryRecord, InboxOperations } from '@outbox-inbox/inbox';
import { AggregateOutboxRow, OutboxOperations } from '@outbox-inbox/outbox';
import { DataSource } from 'typeorm';

/** The order's fulfillment as the timeline shows it. */
export interface FulfillmentSummary {
  id: string;
  status: string;
  attempts: number;
  lastError: string | null;
  couponCode: string | null;
  grantKey: string;
  couponValue: number;
  currency: string;
  createdAt: string;
  updatedAt: string;
}

/** One written state of the fulfillment. */
export interface FulfillmentTransitionRecord {
  version: number;
  status: string;
  attempts: number;
  lastError: string | null;
  occurredAt: string;
}

/** What the fulfillment-service knows of one order: GET /fulfillments/orders/:orderId/timeline. */
export interface FulfillmentTimeline {
  orderId: string;
  fulfillment: FulfillmentSummary | null;
  transitions: FulfillmentTransitionRecord[];
  /** The fulfillment's own events in this service's outbox. */
  outbox: AggregateOutboxRow[];
  /** The order's events as this service's inbox took them in. */
  inbox: InboxDeliveryRecord[];
}

/** Reads the fulfillment-service's part of an order's causal chain. */
@Injectable()
export class FulfillmentTimelineReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxOperations,
    private readonly inbox: InboxOperations,
  ) {}

  async read(orderId: string): Promise<FulfillmentTimeline> {
    const rows = (await this.dataSource.query(
      `SELECT id, status, attempts, last_error, coupon_code, grant_key, coupon_value, currency,
         created_at, updated_at
       FROM t_fulfillment WHERE order_id = ? ORDER BY id LIMIT 1`,
      [orderId],
    )) as Array<Record<string, string | number | Date | null>>;
    const row = rows[0];
    const fulfillment: FulfillmentSummary | null = row
      ? {
          id: String(row.id),
          status: String(row.status),
          attempts: Number(row.attempts),
          lastError: row.last_error === null ? null : String(row.last_error),
          couponCode: row.coupon_code === null ? null : String(row.coupon_code),
          grantKey: String(row.grant_key),
          couponValue: Number(row.coupon_value),
          currency: String(row.currency),
          createdAt: new Date(row.created_at as Date).toISOString(),
          updatedAt: new Date(row.updated_at as Date).toISOString(),
        }
      : null;
    const [transitions, outbox, inbox] = await Promise.all([
      fulfillment ? this.transitions(fulfillment.id) : [],
      fulfillment ? this.outbox.rowsOfAggregate('Fulfillment', fulfillment.id) : [],
      this.inbox.deliveriesOf([{ aggregateType: 'Order', aggregateId: orderId }]),
    ]);
    return { orderId, fulfillment, transitions, outbox, inbox };
  }

  private async transitions(fulfillmentId: string): Promise<FulfillmentTransitionRecord[]> {
    const rows = (await this.dataSource.query(
      `SELECT version, status, attempts, last_error, occurred_at FROM t_fulfillment_transition
       WHERE fulfillment_id = ? ORDER BY id`,
      [fulfillmentId],
    )) as Array<{
      version: number;
      status: string;
      attempts: number;
      last_error: string | null;
      occurred_at: Date;
    }>;
    return rows.map((r) => ({
      version: Number(r.version),
      status: r.status,
      attempts: Number(r.attempts),
      lastError: r.last_error,
      occurredAt: new Date(r.occurred_at).toISOString(),
    }));
  }
}
