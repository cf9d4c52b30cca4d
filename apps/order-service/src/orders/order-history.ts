import { Injectable } from '@nestjs/common';
import { AggregateOutboxRow, OutboxOperations } from '@outbox-inbox/outbox';
import { DataSource } from 'typeorm';
import { PayCallbacksRepository, PayCallbackView } from '../payments/pay-callbacks.repository';
import { OrderTransitionRecord, OrderTransitionsRepository } from './order-transitions.repository';
import { OrderView, toOrderView } from './order.view';
import { OrdersRepository } from './orders.repository';

/**
 * GET /orders/:id/history: the order-service's own records of one order, the part of the
 * order's timeline that only this service holds. The ops console reads it beside the other
 * services' parts (GET /fulfillments/orders/:id/timeline, /ledger/orders/:id/timeline).
 */
export interface OrderHistory {
  order: OrderView;
  /** The pay callbacks whose signature verified, in the order they arrived. */
  callbacks: PayCallbackView[];
  transitions: OrderTransitionRecord[];
  outbox: Array<Omit<AggregateOutboxRow, 'nextRetryAt'>>;
}

/** Reads an order's history: its callbacks, transitions and outbox rows. */
@Injectable()
export class OrderHistoryReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
    private readonly transitions: OrderTransitionsRepository,
    private readonly callbacks: PayCallbacksRepository,
    private readonly outbox: OutboxOperations,
  ) {}

  /** The history, or undefined when the order does not exist. */
  async read(orderId: string): Promise<OrderHistory | undefined> {
    const order = await this.orders.findById(this.dataSource.manager, orderId);
    if (!order) return undefined;
    const [callbacks, transitions, outbox] = await Promise.all([
      this.callbacks.listOfOrder(this.dataSource.manager, orderId),
      this.transitions.list(this.dataSource.manager, orderId),
      this.outbox.rowsOfAggregate('Order', orderId),
    ]);
    return { order: toOrderView(order), callbacks, transitions, outbox };
  }
}
