import type {
  OrderCancelledV1Payload,
  OrderCreatedV1Payload,
  OrderPaidV1Payload,
  OrderPaymentFailedV1Payload,
  OrderPaymentStartedV1Payload,
} from '@app/trading-events';
import type { OrderRejection } from './order.errors';
import type { OrderAction, OrderStatus } from './order-state';

export type { OrderAction, OrderStatus } from './order-state';

/**
 * The order aggregate as plain, immutable data. `version` is both the row's compare-and-set
 * counter and the number of the order's latest event: 1 for OrderCreated, +1 for every
 * transition, each of which records exactly one event, so consumers (which apply version N+1
 * only after N) never wait for a version that does not exist.
 */
export interface Order {
  readonly id: string;
  readonly userId: string;
  /** Minor units (cents). */
  readonly amount: number;
  /** ISO 4217. */
  readonly currency: string;
  readonly status: OrderStatus;
  readonly version: number;
  /** The payment the order waits for (PAYING) or was settled by (PAID, PAYMENT_FAILED). */
  readonly payOrderId: string | null;
  /** The provider notification that settled the payment. */
  readonly settledByNotifyId: string | null;
  readonly closeReason: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly paidAt: Date | null;
  readonly cancelledAt: Date | null;
}

/** An order before the database has given it an id. */
export type NewOrder = Omit<Order, 'id'>;

/** An event the order records; `type` matches the contract's eventType. */
export type OrderEvent =
  | { type: 'OrderCreated'; payload: OrderCreatedV1Payload }
  | { type: 'OrderPaymentStarted'; payload: OrderPaymentStartedV1Payload }
  | { type: 'OrderPaid'; payload: OrderPaidV1Payload }
  | { type: 'OrderCancelled'; payload: OrderCancelledV1Payload }
  | { type: 'OrderPaymentFailed'; payload: OrderPaymentFailedV1Payload };

/**
 * The outcome of a command. `changed` carries the new state and the event to write in the same
 * transaction; `unchanged` is an idempotent repeat.
 */
export type OrderTransition =
  | { kind: 'changed'; order: Order; event: OrderEvent }
  | { kind: 'unchanged'; order: Order }
  | { kind: 'rejected'; rejection: OrderRejection };

/** What the payment provider told us about one payment. */
export interface PaymentNotice {
  notifyId: string;
  payOrderId: string;
  amount: number;
  currency: string;
  status: 'SUCCESS' | 'FAILED';
  /** When the provider says the payment completed (or failed). */
  paidAt: Date;
}

/** A new order in CREATED, version 1 (its OrderCreated event carries version 1). */
export function newOrder(
  input: { userId: string; amount: number; currency: string },
  now: Date,
): NewOrder {
  return {
    userId: input.userId,
    amount: input.amount,
    currency: input.currency,
    status: 'CREATED',
    version: 1,
    payOrderId: null,
    settledByNotifyId: null,
    closeReason: null,
    createdAt: now,
    updatedAt: now,
    paidAt: null,
    cancelledAt: null,
  };
}

/** The OrderCreated event of a freshly stored order. */
export function orderCreatedEvent(order: Order): OrderEvent {
  return {
    type: 'OrderCreated',
    payload: {
      orderId: order.id,
      userId: order.userId,
      amount: order.amount,
      currency: order.currency,
      createdAt: order.createdAt.toISOString(),
    },
  };
}

/**
 * CREATED or PAYMENT_FAILED → PAYING with a new payment id. Asking again while PAYING returns
 * the payment already started, so a retried request does not start a second payment.
 */
export function startPayment(order: Order, payOrderId: string, now: Date): OrderTransition {
  if (order.status === 'PAYING') return { kind: 'unchanged', order };
  if (order.status !== 'CREATED' && order.status !== 'PAYMENT_FAILED') {
    return illegal(order, 'startPayment');
  }
  return {
    kind: 'changed',
    order: {
      ...order,
      status: 'PAYING',
      payOrderId,
      settledByNotifyId: null,
      closeReason: null,
      version: order.version + 1,
      updatedAt: now,
    },
    event: {
      type: 'OrderPaymentStarted',
      payload: {
        orderId: order.id,
        payOrderId,
        amount: order.amount,
        currency: order.currency,
        startedAt: now.toISOString(),
      },
    },
  };
}

/**
 * Applies the provider's verdict on the payment the order waits for: SUCCESS → PAID,
 * FAILED → PAYMENT_FAILED. A verdict the order already reflects is an idempotent repeat.
 * Anything that does not match the order changes nothing.
 */
export function settlePayment(order: Order, notice: PaymentNotice, now: Date): OrderTransition {
  if (order.payOrderId === null || order.payOrderId !== notice.payOrderId) {
    return {
      kind: 'rejected',
      rejection: {
        code: 'UNKNOWN_PAYMENT',
        payOrderId: notice.payOrderId,
        message: `order ${order.id} is not waiting for payment ${notice.payOrderId}`,
      },
    };
  }
  if (order.amount !== notice.amount || order.currency !== notice.currency) {
    return {
      kind: 'rejected',
      rejection: {
        code: 'AMOUNT_MISMATCH',
        expected: { amount: order.amount, currency: order.currency },
        received: { amount: notice.amount, currency: notice.currency },
        message: `order ${order.id} is ${order.amount} ${order.currency}`,
      },
    };
  }
  return notice.status === 'SUCCESS'
    ? confirmPayment(order, notice, now)
    : failPayment(order, notice, now);
}

function confirmPayment(order: Order, notice: PaymentNotice, now: Date): OrderTransition {
  if (order.status === 'PAID') return { kind: 'unchanged', order };
  if (order.status !== 'PAYING') return illegal(order, 'confirmPayment');
  const paid: Order = {
    ...order,
    status: 'PAID',
    settledByNotifyId: notice.notifyId,
    paidAt: notice.paidAt,
    version: order.version + 1,
    updatedAt: now,
  };
  return {
    kind: 'changed',
    order: paid,
    event: {
      type: 'OrderPaid',
      payload: {
        orderId: order.id,
        userId: order.userId,
        payOrderId: notice.payOrderId,
        notifyId: notice.notifyId,
        amount: order.amount,
        currency: order.currency,
        paidAt: notice.paidAt.toISOString(),
      },
    },
  };
}

function failPayment(order: Order, notice: PaymentNotice, now: Date): OrderTransition {
  // A failed payment of an order cancelled meanwhile changes nothing the order cares about.
  if (order.status === 'PAYMENT_FAILED' || order.status === 'CANCELLED') {
    return { kind: 'unchanged', order };
  }
  if (order.status !== 'PAYING') return illegal(order, 'failPayment');
  const reason = 'the payment provider reported FAILED';
  return {
    kind: 'changed',
    order: {
      ...order,
      status: 'PAYMENT_FAILED',
      settledByNotifyId: notice.notifyId,
      closeReason: reason,
      version: order.version + 1,
      updatedAt: now,
    },
    event: {
      type: 'OrderPaymentFailed',
      payload: {
        orderId: order.id,
        payOrderId: notice.payOrderId,
        notifyId: notice.notifyId,
        reason,
        failedAt: notice.paidAt.toISOString(),
      },
    },
  };
}

/** Any state but PAID → CANCELLED; cancelling a cancelled order is an idempotent repeat. */
export function cancelOrder(order: Order, reason: string, now: Date): OrderTransition {
  if (order.status === 'CANCELLED') return { kind: 'unchanged', order };
  if (order.status === 'PAID') return illegal(order, 'cancel');
  return {
    kind: 'changed',
    order: {
      ...order,
      status: 'CANCELLED',
      closeReason: reason,
      cancelledAt: now,
      version: order.version + 1,
      updatedAt: now,
    },
    event: {
      type: 'OrderCancelled',
      payload: {
        orderId: order.id,
        userId: order.userId,
        reason,
        cancelledAt: now.toISOString(),
      },
    },
  };
}

function illegal(order: Order, action: OrderAction): OrderTransition {
  return {
    kind: 'rejected',
    rejection: {
      code: 'ILLEGAL_TRANSITION',
      action,
      from: order.status,
      message: `cannot ${action} an order in ${order.status}`,
    },
  };
}
