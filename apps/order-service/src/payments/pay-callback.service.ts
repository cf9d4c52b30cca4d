import { Injectable } from '@nestjs/common';
import { runStatements, runTransaction } from '@outbox-inbox/database';
import { DataSource, EntityManager } from 'typeorm';
import { settlePayment } from '../orders/domain/order';
import { OrderEventsOutbox } from '../orders/order-events.outbox';
import { OrdersRepository } from '../orders/orders.repository';
import { retryOnConflict } from '../orders/retry-on-conflict';
import { PayCallbackAnswer, PayCallbackDto } from './pay-callback.dto';
import { PayNotificationsRepository } from './pay-notifications.repository';
import { differingFields } from './repeat-notification';

/** What happened to one verified, well-formed notification; the controller maps it to HTTP. */
export type PayCallbackOutcome =
  /** Committed (or already committed before): answer 200 with `answer`. */
  | { kind: 'accepted'; answer: PayCallbackAnswer; repeat: boolean }
  | { kind: 'unknown-order' }
  | { kind: 'unknown-payment' }
  /**
   * Amount or currency differ from the order, or the notifyId was processed with other values
   * in a field the decision used (order, payment, amount, currency, status).
   */
  | { kind: 'mismatch'; message: string }
  /** The order cannot take this verdict (e.g. SUCCESS for a CANCELLED order). */
  | { kind: 'conflict'; message: string };

/**
 * Applies a payment notification exactly once. In one transaction: answer a processed
 * notifyId from its stored answer when the repeat equals it in every decision field (422
 * otherwise); otherwise decide in the aggregate, claim the notifyId
 * (primary key) together with the answer, compare-and-set the order and add its event to the
 * outbox. Concurrent copies collide on the notifyId or the order's version, roll back and
 * rerun, and then read the winner's answer: one transition, one event, the same answer.
 */
@Injectable()
export class PayCallbackService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
    private readonly notifications: PayNotificationsRepository,
    private readonly events: OrderEventsOutbox,
  ) {}

  /** Resolves after the commit, so an `accepted` outcome is durable when answered. */
  handle(notice: PayCallbackDto): Promise<PayCallbackOutcome> {
    return retryOnConflict(() =>
      runTransaction(this.dataSource, (manager) => this.process(manager, notice)),
    );
  }

  private async process(
    manager: EntityManager,
    notice: PayCallbackDto,
  ): Promise<PayCallbackOutcome> {
    // Both reads in one round trip; the order is read even when the notification answers.
    const [processed, order] = await runStatements(manager, [
      this.notifications.findStatement(notice.notifyId),
      this.orders.findByIdStatement(notice.orderId),
    ]);
    if (processed) {
      const differing = differingFields(processed, notice);
      if (differing.length > 0) {
        return {
          kind: 'mismatch',
          message: `notifyId was processed with another ${differing.join(', ')}`,
        };
      }
      return { kind: 'accepted', answer: processed.answer, repeat: true };
    }

    if (!order) return { kind: 'unknown-order' };
    const transition = settlePayment(
      order,
      { ...notice, paidAt: new Date(notice.paidAt) },
      new Date(),
    );
    if (transition.kind === 'rejected') {
      const { rejection } = transition;
      switch (rejection.code) {
        case 'UNKNOWN_PAYMENT':
          return { kind: 'unknown-payment' };
        case 'AMOUNT_MISMATCH':
          return { kind: 'mismatch', message: 'amount or currency differ from the order' };
        case 'ILLEGAL_TRANSITION':
          return { kind: 'conflict', message: `order is ${rejection.from}` };
      }
    }

    const answer: PayCallbackAnswer = {
      result: 'SUCCESS',
      orderId: order.id,
      payOrderId: notice.payOrderId,
      orderStatus: transition.order.status,
    };
    // The claim, the compare-and-set, the transition (and then the event) go together: one
    // round trip for the three writes whose only answers are "done" or a lost race.
    const claim = this.notifications.insertStatement({
      notifyId: notice.notifyId,
      orderId: order.id,
      payOrderId: notice.payOrderId,
      amount: notice.amount,
      currency: notice.currency,
      status: notice.status,
      changedOrder: transition.kind === 'changed',
      answer,
    });
    if (transition.kind === 'changed') {
      await this.events.record(manager, transition.order, transition.event, notice.notifyId, [
        claim,
        this.orders.updateStatement(transition.order, order.version),
      ]);
    } else {
      await runStatements(manager, [claim]);
    }
    return { kind: 'accepted', answer, repeat: transition.kind === 'unchanged' };
  }
}
