import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventEnvelope } from '@outbox-inbox/messaging';
import {
  FulfillmentDoneV1,
  FulfillmentRevertedV1,
  OrderCancelledV1Payload,
  OrderPaidV1Payload,
} from '@app/trading-events';
import { OutboxWriter } from '@outbox-inbox/outbox';
import { EntityManager } from 'typeorm';
import { COUPON_GATEWAY, CouponGateway } from '../coupons/coupon-gateway.port';
import {
  couponValueFor,
  decideCancel,
  decideGrant,
  FulfillmentState,
  markCancelled,
  markGranted,
  markGrantFailed,
  markReverted,
} from './domain/fulfillment';
import { FULFILLMENT_OPTIONS, FulfillmentOptions, retryScheduleOf } from './fulfillment.options';
import { FulfillmentRepository } from './fulfillment.repository';

/** Thrown when a coupon could not be revoked; the inbox retries the event, then dead-letters it. */
export class CouponRevokeFailedError extends Error {
  readonly code = 'COUPON_REVOKE_FAILED' as const;
}

/**
 * Fulfillment commands. Each runs inside the caller's transaction (the inbox's, or the
 * retrier's) and holds the fulfillment's row lock while it calls the coupon provider, so two
 * deliveries of one event can never grant twice; the provider's idempotency key covers the
 * case where a grant took effect but its reply, or our commit, was lost.
 */
@Injectable()
export class FulfillmentService {
  private readonly logger = new Logger(FulfillmentService.name);

  constructor(
    private readonly fulfillments: FulfillmentRepository,
    private readonly outbox: OutboxWriter,
    @Inject(COUPON_GATEWAY) private readonly coupons: CouponGateway,
    @Inject(FULFILLMENT_OPTIONS) private readonly options: FulfillmentOptions,
  ) {}

  /** OrderPaid: create the fulfillment if new, then grant its coupon unless already done. */
  async handleOrderPaid(
    manager: EntityManager,
    event: EventEnvelope<OrderPaidV1Payload>,
  ): Promise<FulfillmentState> {
    const { orderId, userId, amount, currency } = event.payload;
    const now = new Date();
    const current = await this.fulfillments.insertIfAbsentAndLock(
      manager,
      {
        orderId,
        userId,
        status: 'INIT',
        grantKey: event.eventKey,
        couponValue: couponValueFor(amount, this.options.couponRateBps),
        currency,
      },
      now,
    );
    if (!current)
      throw new Error(`fulfillment of order ${orderId} vanished inside its transaction`);
    return this.grant(manager, current, {
      causationId: event.eventId,
      correlationId: event.correlationId,
      trace: event.trace,
    });
  }

  /** Retries the FAILED fulfillment due soonest; undefined when none is due. */
  async retryNextDue(manager: EntityManager): Promise<FulfillmentState | undefined> {
    const due = await this.fulfillments.lockNextDue(manager, new Date());
    return due && this.grant(manager, due, {});
  }

  /** OrderCancelled: cancel an ungranted fulfillment, or revoke the coupon of a done one. */
  async handleOrderCancelled(
    manager: EntityManager,
    event: EventEnvelope<OrderCancelledV1Payload>,
  ): Promise<FulfillmentState | undefined> {
    const { orderId, userId } = event.payload;
    const now = new Date();
    const current = await this.fulfillments.lockByOrder(manager, orderId);
    if (!current) {
      // Nothing was paid; remember the cancellation so that a late OrderPaid grants nothing.
      await this.fulfillments.insertIfAbsent(
        manager,
        { orderId, userId, status: 'CANCELLED', grantKey: '', couponValue: 0, currency: 'XXX' },
        now,
      );
      return this.fulfillments.findByOrder(manager, orderId);
    }
    const decision = decideCancel(current);
    if (decision.kind === 'nothing-to-do') return current;
    if (decision.kind === 'cancel') {
      const cancelled = markCancelled(current);
      await this.fulfillments.save(manager, current, cancelled, now);
      return cancelled;
    }
    const revoked = await this.coupons.revoke(decision.couponCode);
    if (revoked.kind === 'failed') {
      throw new CouponRevokeFailedError(`coupon ${decision.couponCode}: ${revoked.reason}`);
    }
    const reverted = markReverted(current);
    // The compare-and-set, its transition and the event travel in one round trip.
    await this.outbox.add(
      manager,
      FulfillmentRevertedV1,
      {
        aggregateId: reverted.id,
        aggregateVersion: reverted.eventVersion,
        correlationId: event.correlationId ?? `order-${orderId}`,
        causationId: event.eventId,
        trace: event.trace,
        payload: {
          fulfillmentId: reverted.id,
          orderId,
          couponCode: decision.couponCode,
          couponValue: reverted.couponValue,
          currency: reverted.currency,
          reason: event.payload.reason,
          revertedAt: now.toISOString(),
        },
      },
      this.fulfillments.saveStatements(current, reverted, now),
    );
    return reverted;
  }

  private async grant(
    manager: EntityManager,
    current: FulfillmentState,
    cause: Pick<EventEnvelope, 'causationId' | 'correlationId' | 'trace'>,
  ): Promise<FulfillmentState> {
    const decision = decideGrant(current);
    if (decision.kind === 'nothing-to-do') return current;

    const result = await this.coupons.grant({
      idempotencyKey: current.grantKey,
      userId: current.userId,
      orderId: current.orderId,
      value: current.couponValue,
      currency: current.currency,
    });
    const now = new Date();
    if (result.kind !== 'granted') {
      const failed = markGrantFailed(
        current,
        result.reason,
        now,
        retryScheduleOf(this.options),
        result.kind === 'rejected',
      );
      await this.fulfillments.save(manager, current, failed, now);
      const when = failed.nextAttemptAt
        ? `retry at ${failed.nextAttemptAt.toISOString()}`
        : 'stuck';
      this.logger.warn(
        `coupon grant for order ${current.orderId} failed (${result.reason}); ${when}`,
      );
      return failed;
    }

    const done = markGranted(current, result.couponCode);
    // The compare-and-set, its transition and the event travel in one round trip.
    await this.outbox.add(
      manager,
      FulfillmentDoneV1,
      {
        aggregateId: done.id,
        aggregateVersion: done.eventVersion,
        correlationId: cause.correlationId ?? `order-${done.orderId}`,
        causationId: cause.causationId,
        trace: cause.trace,
        payload: {
          fulfillmentId: done.id,
          orderId: done.orderId,
          userId: done.userId,
          type: 'COUPON',
          couponCode: result.couponCode,
          couponValue: done.couponValue,
          currency: done.currency,
          doneAt: now.toISOString(),
        },
      },
      this.fulfillments.saveStatements(current, done, now),
    );
    return done;
  }
}
