import { Injectable } from '@nestjs/common';
import { EventDefinition, NewEvent } from '@outbox-inbox/messaging';
import {
  OrderCancelledV1,
  OrderCreatedV1,
  OrderPaidV1,
  OrderPaymentFailedV1,
  OrderPaymentStartedV1,
} from '@app/trading-events';
import { currentCorrelationId } from '@app/observability';
import { OutboxWriter } from '@outbox-inbox/outbox';
import { Statement } from '@outbox-inbox/database';
import { EntityManager } from 'typeorm';
import { Order, OrderEvent } from './domain/order';
import { OrderTransitionsRepository } from './order-transitions.repository';

/**
 * Writes the order's events to the outbox, in the caller's transaction, numbered with the
 * order's version (so one order's events are 1, 2, 3… without gaps), and the transition to the
 * order's durable history in the same transaction.
 */
@Injectable()
export class OrderEventsOutbox {
  constructor(
    private readonly outbox: OutboxWriter,
    private readonly transitions: OrderTransitionsRepository,
  ) {}

  /**
   * `causationId`: what caused the event (the provider's notifyId, an Idempotency-Key…).
   * `alongside`: the caller's own writes of this change (the order's compare-and-set, the
   * notification's claim), sent with the transition and the event's insert in one round trip;
   * any of them failing fails the call, and the caller's transaction rolls the transition and
   * the event back with it.
   */
  async record(
    manager: EntityManager,
    order: Order,
    event: OrderEvent,
    causationId?: string,
    alongside: Statement<unknown>[] = [],
  ): Promise<void> {
    const writes = [...alongside, this.transitions.recordStatement(order, event.type, causationId)];
    const meta = {
      aggregateId: order.id,
      aggregateVersion: order.version,
      // The request's x-correlation-id (or the id generated for it), so one flow can be followed
      // from the HTTP request through every consumer; `order-<id>` outside a request.
      correlationId: currentCorrelationId() ?? `order-${order.id}`,
      ...(causationId !== undefined && { causationId }),
    };
    switch (event.type) {
      case 'OrderCreated':
        return this.add(manager, OrderCreatedV1, { ...meta, payload: event.payload }, writes);
      case 'OrderPaymentStarted':
        return this.add(
          manager,
          OrderPaymentStartedV1,
          { ...meta, payload: event.payload },
          writes,
        );
      case 'OrderPaid':
        return this.add(manager, OrderPaidV1, { ...meta, payload: event.payload }, writes);
      case 'OrderCancelled':
        return this.add(manager, OrderCancelledV1, { ...meta, payload: event.payload }, writes);
      case 'OrderPaymentFailed':
        return this.add(manager, OrderPaymentFailedV1, { ...meta, payload: event.payload }, writes);
    }
  }

  private async add<P extends object>(
    manager: EntityManager,
    definition: EventDefinition<P>,
    event: NewEvent<P>,
    writes: Statement<unknown>[],
  ): Promise<void> {
    await this.outbox.add(manager, definition, event, writes);
  }
}
