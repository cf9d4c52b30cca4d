import { Injectable } from '@nestjs/common';
import { runStatements, runTransaction, Statement } from '@outbox-inbox/database';
import { DataSource, EntityManager } from 'typeorm';
import { settlePayment } from '../orders/domain/order';
import { OrderRejection } from '../orders/domain/order.errors';
import { OrderEventsOutbox } from '../orders/order-events.outbox';
import { OrdersRepository } from '../orders/orders.repository';
import { retryOnConflict } from '../orders/retry-on-conflict';
import { LATE_CALLBACK, PayCallbackOutcome, verdictOf } from './pay-callback-outcome';
import { PayCallbackAnswer, PayCallbackDto } from './pay-callback.dto';
import { PayCallbacksRepository } from './pay-callbacks.repository';
import { PayNotificationsRepository } from './pay-notifications.repository';
import { differingFields } from './repeat-notification';

export type { PayCallbackOutcome } from './pay-callback-outcome';

/**
 * Applies a payment notification exactly once. In one transaction: answer a processed
 * notifyId from its stored answer when the repeat equals it in every decision field (422
 * otherwise); otherwise decide in the aggregate, claim the notifyId
 * (primary key) together with the answer, compare-and-set the order and add its event to the
 * outbox. Concurrent copies collide on the notifyId or the order's version, roll back and
 * rerun, and then read the winner's answer: one transition, one event, the same answer.
 * Every outcome of an existing order is recorded for its timeline (t_pay_callback) in the same
 * transaction: an accepted callback's row commits with its effect, or not at all.
 */
@Injectable()
export class PayCallbackService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
    private readonly notifications: PayNotificationsRepository,
    private readonly callbacks: PayCallbacksRepository,
    private readonly events: OrderEventsOutbox,
  ) {}

  /**
   * Resolves after the commit, so an `accepted` outcome is durable when answered. `signedAt`:
   * the timestamp the provider signed it with.
   */
  handle(notice: PayCallbackDto, signedAt: Date): Promise<PayCallbackOutcome> {
    return retryOnConflict(() =>
      runTransaction(this.dataSource, (manager) => this.process(manager, notice, signedAt)),
    );
  }

  /**
   * Records a late copy (the provider's signature, outside the window) on its order's timeline.
   * It changes nothing else: the controller refuses it with 401, as before.
   */
  async recordLate(notice: PayCallbackDto, signedAt: Date): Promise<void> {
    const record = { ...decisionOf(notice), ...LATE_CALLBACK, signedAt, receivedAt: new Date() };
    await runStatements(this.dataSource.manager, [this.callbacks.insertStatement(record)]);
  }

  private async process(
    manager: EntityManager,
    notice: PayCallbackDto,
    signedAt: Date,
  ): Promise<PayCallbackOutcome> {
    const receivedAt = new Date();
    const recorded = (outcome: PayCallbackOutcome): Statement[] => {
      const verdict = verdictOf(outcome);
      if (!verdict) return []; // no order, no timeline
      const record = { ...decisionOf(notice), ...verdict, signedAt, receivedAt };
      return [this.callbacks.insertStatement(record)];
    };
    const answered = async (outcome: PayCallbackOutcome): Promise<PayCallbackOutcome> => {
      await runStatements(manager, recorded(outcome));
      return outcome;
    };
    // Both reads in one round trip; the order is read even when the notification answers.
    const [processed, order] = await runStatements(manager, [
      this.notifications.findStatement(notice.notifyId),
      this.orders.findByIdStatement(notice.orderId),
    ]);
    if (processed) {
      const differing = differingFields(processed, notice);
      if (differing.length > 0) {
        return answered({
          kind: 'mismatch',
          message: `notifyId was processed with another ${differing.join(', ')}`,
        });
      }
      return answered({ kind: 'accepted', answer: processed.answer, repeat: true });
    }
    if (!order) return { kind: 'unknown-order' };
    const transition = settlePayment(
      order,
      { ...notice, paidAt: new Date(notice.paidAt) },
      receivedAt,
    );
    if (transition.kind === 'rejected') return answered(rejectionOutcome(transition.rejection));
    const answer: PayCallbackAnswer = {
      result: 'SUCCESS',
      orderId: order.id,
      payOrderId: notice.payOrderId,
      orderStatus: transition.order.status,
    };
    const outcome: PayCallbackOutcome = {
      kind: 'accepted',
      answer,
      repeat: transition.kind === 'unchanged',
    };
    // The claim, the compare-and-set, the callback's record, the transition (and then the
    // event) go together: one round trip for the writes whose only answers are "done" or a
    // lost race.
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
        ...recorded(outcome),
      ]);
    } else {
      await runStatements(manager, [claim, ...recorded(outcome)]);
    }
    return outcome;
  }
}

/** The fields of the notification its record keeps. */
function decisionOf(notice: PayCallbackDto) {
  const { notifyId, orderId, payOrderId, amount, currency, status } = notice;
  return { notifyId, orderId, payOrderId, amount, currency, status };
}

function rejectionOutcome(rejection: OrderRejection): PayCallbackOutcome {
  switch (rejection.code) {
    case 'UNKNOWN_PAYMENT':
      return { kind: 'unknown-payment' };
    case 'AMOUNT_MISMATCH':
      return { kind: 'mismatch', message: 'amount or currency differ from the order' };
    case 'ILLEGAL_TRANSITION':
      return { kind: 'conflict', message: `order is ${rejection.from}` };
  }
}
