import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OrderList } from './recent-orders.dto';

/** An order as the console's list shows it. */
export interface RecentOrder {
  id: string;
  status: string;
  amount: number;
  currency: string;
  userId: string;
  createdAt: string;
  updatedAt: string;
  /** Why it closed (cancelled or failed), when it did. */
  closeReason: string | null;
}

/** The statuses behind each list; `stuck` also needs the order to be old enough. */
const STATUSES: Record<OrderList, string[] | null> = {
  all: null,
  paid: ['PAID'],
  stuck: ['CREATED', 'PAYING'],
  failed: ['PAYMENT_FAILED'],
  cancelled: ['CANCELLED'],
};

/** The most recently changed orders of a list, newest first, for the ops console. */
@Injectable()
export class RecentOrdersReader {
  constructor(private readonly dataSource: DataSource) {}

  async list(options: {
    status: OrderList;
    q?: string;
    stuckAfterMs: number;
    limit: number;
    now?: Date;
  }): Promise<RecentOrder[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const statuses = STATUSES[options.status];
    if (statuses) {
      where.push('status IN (?)');
      params.push(statuses);
    }
    if (options.status === 'stuck') {
      where.push('updated_at < ?');
      params.push(new Date((options.now ?? new Date()).getTime() - options.stuckAfterMs));
    }
    if (options.q) {
      where.push('CAST(id AS CHAR) LIKE ?');
      params.push(`${options.q}%`);
    }
    const rows = (await this.dataSource.query(
      `SELECT id, status, amount, currency, user_id, created_at, updated_at, close_reason
       FROM t_order ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY updated_at DESC, id DESC LIMIT ?`,
      [...params, options.limit],
    )) as Array<Record<string, string | number | Date | null>>;
    return rows.map((r) => ({
      id: String(r.id),
      status: String(r.status),
      amount: Number(r.amount),
      currency: String(r.currency),
      userId: String(r.user_id),
      createdAt: new Date(r.created_at as Date).toISOString(),
      updatedAt: new Date(r.updated_at as Date).toISOString(),
      closeReason: r.close_reason === null ? null : String(r.close_reason),
    }));
  }
}
