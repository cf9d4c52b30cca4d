import { Injectable } from '@nestjs/common';
import { Statement } from '@outbox-inbox/database';
import { EntityManager } from 'typeorm';
import { Order } from './domain/order';

/** One recorded state change of an order. */
export interface OrderTransitionRecord {
  version: number;
  status: string;
  eventType: string;
  cause: string | null;
  occurredAt: string;
}

/** t_order_transition: the order's durable history, one row per version. */
@Injectable()
export class OrderTransitionsRepository {
  /**
   * Records that `order` reached its current version, in the caller's transaction, as a statement
   * for runStatements (sent with the order's own writes).
   */
  recordStatement(order: Order, eventType: string, cause?: string): Statement {
    return {
      sql: `INSERT INTO t_order_transition (order_id, version, status, event_type, cause, occurred_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
      params: [order.id, order.version, order.status, eventType, cause ?? null, order.updatedAt],
      read: () => undefined,
    };
  }

  /** The order's transitions, oldest first. */
  async list(manager: EntityManager, orderId: string): Promise<OrderTransitionRecord[]> {
    const rows = (await manager.query(
      `SELECT version, status, event_type, cause, occurred_at FROM t_order_transition
       WHERE order_id = ? ORDER BY version`,
      [orderId],
    )) as Array<{
      version: number | string;
      status: string;
      event_type: string;
      cause: string | null;
      occurred_at: Date;
    }>;
    return rows.map((r) => ({
      version: Number(r.version),
      status: r.status,
      eventType: r.event_type,
      cause: r.cause,
      occurredAt: new Date(r.occurred_at).toISOString(),
    }));
  }
}
