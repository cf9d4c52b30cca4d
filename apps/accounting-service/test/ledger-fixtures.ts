import { createEnvelope, EventEnvelope } from '@outbox-inbox/messaging';
import {
  FulfillmentDoneV1,
  FulfillmentDoneV1Payload,
  FulfillmentRevertedV1,
  FulfillmentRevertedV1Payload,
  OrderCancelledV1,
  OrderCancelledV1Payload,
  OrderCreatedV1,
  OrderPaidV1,
  OrderPaidV1Payload,
  OrderPaymentStartedV1,
} from '@app/trading-events';

// Valid envelopes for the events the ledger books; versions follow the order's life
// (created 1, payment started 2, paid 3, cancelled 4) and the fulfillment's (done 1, reverted 2),
// as order-service and fulfillment-service number them.

const at = '2026-12-01T10:00:00.000Z';

/** The two events before OrderPaid, which the inbox's version gate needs to see first. */
export function orderOpened(orderId: string, amount: number, currency = 'EUR'): EventEnvelope[] {
  return [
    createEnvelope(OrderCreatedV1, {
      aggregateId: orderId,
      aggregateVersion: 1,
      payload: { orderId, userId: `u-${orderId}`, amount, currency, createdAt: at },
    }),
    createEnvelope(OrderPaymentStartedV1, {
      aggregateId: orderId,
      aggregateVersion: 2,
      payload: { orderId, payOrderId: `pay-${orderId}`, amount, currency, startedAt: at },
    }),
  ];
}

export function orderPaid(
  orderId: string,
  amount: number,
  currency = 'EUR',
  version = 3,
): EventEnvelope<OrderPaidV1Payload> {
  return createEnvelope(OrderPaidV1, {
    aggregateId: orderId,
    aggregateVersion: version,
    payload: {
      orderId,
      userId: `u-${orderId}`,
      payOrderId: `pay-${orderId}`,
      notifyId: `n-${orderId}`,
      amount,
      currency,
      paidAt: at,
    },
  });
}

export function orderCancelled(
  orderId: string,
  version = 4,
): EventEnvelope<OrderCancelledV1Payload> {
  return createEnvelope(OrderCancelledV1, {
    aggregateId: orderId,
    aggregateVersion: version,
    payload: { orderId, userId: `u-${orderId}`, reason: 'customer request', cancelledAt: at },
  });
}

export function fulfillmentDone(
  orderId: string,
  couponValue: number,
  currency = 'EUR',
): EventEnvelope<FulfillmentDoneV1Payload> {
  return createEnvelope(FulfillmentDoneV1, {
    aggregateId: `f${orderId}`,
    aggregateVersion: 1,
    payload: {
      fulfillmentId: `f${orderId}`,
      orderId,
      userId: `u-${orderId}`,
      type: 'COUPON',
      couponCode: `C-${orderId}`,
      couponValue,
      currency,
      doneAt: at,
    },
  });
}

export function fulfillmentReverted(
  orderId: string,
  couponValue: number,
  currency = 'EUR',
): EventEnvelope<FulfillmentRevertedV1Payload> {
  return createEnvelope(FulfillmentRevertedV1, {
    aggregateId: `f${orderId}`,
    aggregateVersion: 2,
    payload: {
      fulfillmentId: `f${orderId}`,
      orderId,
      couponCode: `C-${orderId}`,
      couponValue,
      currency,
      reason: 'order cancelled',
      revertedAt: at,
    },
  });
}
