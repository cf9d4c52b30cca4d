import { createHash, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { runTransaction } from '@outbox-inbox/database';
import { DataSource, EntityManager } from 'typeorm';
import { OrderRejection } from './domain/order.errors';
import {
  cancelOrder,
  newOrder,
  Order,
  orderCreatedEvent,
  OrderTransition,
  startPayment,
} from './domain/order';
import { OrderEventsOutbox } from './order-events.outbox';
import { OrderIdempotencyRepository } from './order-idempotency.repository';
import { OrdersRepository } from './orders.repository';
import { retryOnConflict } from './retry-on-conflict';
import { OrderView, toOrderView } from './order.view';

/** Outcome of POST /orders. */
export type CreateOrderResult =
  | { kind: 'created'; status: number; body: OrderView; replayed: boolean }
  /** The Idempotency-Key was first used with another body. */
  | { kind: 'key-reused' };

/** Outcome of a command on an existing order. */
export type OrderCommandResult =
  | { kind: 'done'; order: Order }
  | { kind: 'not-found' }
  | { kind: 'rejected'; rejection: OrderRejection };

/**
 * The order commands. Each runs in one transaction: read, decide in the aggregate,
 * compare-and-set the row and add the event to the outbox through the same EntityManager.
 */
@Injectable()
export class OrdersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
    private readonly idempotency: OrderIdempotencyRepository,
    private readonly events: OrderEventsOutbox,
  ) {}

  /**
   * Creates an order. With an Idempotency-Key, the first response is stored with the request's
   * hash in the same transaction, and every retry gets it back; a concurrent duplicate loses
   * the key's unique index, rolls back its own order and answers the winner's response.
   */
  async create(
    input: { userId: string; amount: number; currency: string },
    idempotencyKey?: string,
  ): Promise<CreateOrderResult> {
    const requestHash = hashOf([input.userId, input.amount, input.currency]);
    return retryOnConflict(() =>
      runTransaction(this.dataSource, async (manager): Promise<CreateOrderResult> => {
        if (idempotencyKey !== undefined) {
          const stored = await this.idempotency.find(manager, idempotencyKey);
          if (stored) {
            if (stored.requestHash !== requestHash) return { kind: 'key-reused' };
            return {
              kind: 'created',
              status: stored.responseStatus,
              body: stored.responseBody as OrderView,
              replayed: true,
            };
          }
        }
        const order = await this.orders.insert(manager, newOrder(input, new Date()));
        await this.events.record(manager, order, orderCreatedEvent(order), idempotencyKey);
        const body = toOrderView(order);
        if (idempotencyKey !== undefined) {
          await this.idempotency.insert(manager, {
            key: idempotencyKey,
            requestHash,
            orderId: order.id,
            responseStatus: 201,
            responseBody: body,
          });
        }
        return { kind: 'created', status: 201, body, replayed: false };
      }),
    );
  }

  /** CREATED or PAYMENT_FAILED → PAYING with a new payment id; PAYING answers the current one. */
  startPayment(orderId: string): Promise<OrderCommandResult> {
    return this.command(orderId, (order, now) =>
      startPayment(order, `pay_${randomUUID().replace(/-/g, '')}`, now),
    );
  }

  /** Any state but PAID → CANCELLED. */
  cancel(orderId: string, reason: string): Promise<OrderCommandResult> {
    return this.command(orderId, (order, now) => cancelOrder(order, reason, now));
  }

  /** The order, or undefined. */
  find(orderId: string): Promise<Order | undefined> {
    return this.orders.findById(this.dataSource.manager, orderId);
  }

  private command(
    orderId: string,
    decide: (order: Order, now: Date) => OrderTransition,
  ): Promise<OrderCommandResult> {
    return retryOnConflict(() =>
      runTransaction(this.dataSource, async (manager) => {
        const order = await this.orders.findById(manager, orderId);
        if (!order) return { kind: 'not-found' };
        const transition = decide(order, new Date());
        return this.apply(manager, order, transition);
      }),
    );
  }

  private async apply(
    manager: EntityManager,
    current: Order,
    transition: OrderTransition,
  ): Promise<OrderCommandResult> {
    switch (transition.kind) {
      case 'rejected':
        return { kind: 'rejected', rejection: transition.rejection };
      case 'unchanged':
        return { kind: 'done', order: transition.order };
      case 'changed':
        await this.events.record(manager, transition.order, transition.event, undefined, [
          this.orders.updateStatement(transition.order, current.version),
        ]);
        return { kind: 'done', order: transition.order };
    }
  }
}

function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}
