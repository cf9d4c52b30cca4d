import { Injectable } from '@nestjs/common';
import { compareAndSet, runStatements, Statement } from '@outbox-inbox/database';
import { EntityManager } from 'typeorm';
import { OrderConcurrentUpdateError } from './domain/order.errors';
import { NewOrder, Order, OrderStatus } from './domain/order';

interface OrderRow {
  id: string;
  user_id: string;
  amount: string | number;
  currency: string;
  status: string;
  version: string | number;
  pay_order_id: string | null;
  settled_by_notify_id: string | null;
  close_reason: string | null;
  created_at: Date;
  updated_at: Date;
  paid_at: Date | null;
  cancelled_at: Date | null;
}

const COLUMNS =
  'id, user_id, amount, currency, status, version, pay_order_id, settled_by_notify_id, ' +
  'close_reason, created_at, updated_at, paid_at, cancelled_at';

/**
 * Reads and writes t_order with raw SQL, always through the caller's EntityManager so that
 * the write shares the caller's transaction with the outbox row.
 */
@Injectable()
export class OrdersRepository {
  /** Inserts a new order and returns it with the id the database gave it. */
  async insert(manager: EntityManager, order: NewOrder): Promise<Order> {
    const result: { insertId: number | string } = await manager.query(
      `INSERT INTO t_order (user_id, amount, currency, status, version, pay_order_id,
         settled_by_notify_id, close_reason, created_at, updated_at, paid_at, cancelled_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        order.userId,
        order.amount,
        order.currency,
        order.status,
        order.version,
        order.payOrderId,
        order.settledByNotifyId,
        order.closeReason,
        order.createdAt,
        order.updatedAt,
        order.paidAt,
        order.cancelledAt,
      ],
    );
    return { ...order, id: String(result.insertId) };
  }

  /** The order, or undefined. A plain read: correctness comes from the CAS in `update`. */
  async findById(manager: EntityManager, id: string): Promise<Order | undefined> {
    const [order] = await runStatements(manager, [this.findByIdStatement(id)]);
    return order;
  }

  /** `findById` as a statement, to send with others in one round trip (runStatements). */
  findByIdStatement(id: string): Statement<Order | undefined> {
    return {
      sql: `SELECT ${COLUMNS} FROM t_order WHERE id = ?`,
      params: [id],
      read: (rows) => {
        const [row] = rows as OrderRow[];
        return row && toOrder(row);
      },
    };
  }

  /**
   * Writes `next` only if the row is still at `expectedVersion` (compare-and-set), as a statement
   * for runStatements: its `read` throws OrderConcurrentUpdateError when another transaction got
   * there first.
   */
  updateStatement(next: Order, expectedVersion: number): Statement {
    return compareAndSet({
      table: 't_order',
      set: {
        status: next.status,
        version: next.version,
        pay_order_id: next.payOrderId,
        settled_by_notify_id: next.settledByNotifyId,
        close_reason: next.closeReason,
        updated_at: next.updatedAt,
        paid_at: next.paidAt,
        cancelled_at: next.cancelledAt,
      },
      expected: { id: next.id, version: expectedVersion },
      lost: () => new OrderConcurrentUpdateError(next.id, expectedVersion),
    });
  }
}

function toOrder(row: OrderRow): Order {
  return {
    id: String(row.id),
    userId: row.user_id,
    amount: Number(row.amount),
    currency: row.currency,
    status: row.status as OrderStatus,
    version: Number(row.version),
    payOrderId: row.pay_order_id,
    settledByNotifyId: row.settled_by_notify_id,
    closeReason: row.close_reason,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    paidAt: row.paid_at && new Date(row.paid_at),
    cancelledAt: row.cancelled_at && new Date(row.cancelled_at),
  };
}
