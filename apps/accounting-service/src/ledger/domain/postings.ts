import { EventEnvelope } from '@outbox-inbox/messaging';
import {
  FulfillmentDoneV1Payload,
  FulfillmentRevertedV1Payload,
  OrderCancelledV1Payload,
  OrderPaidV1Payload,
} from '@app/trading-events';
import { Accounts } from './chart-of-accounts';
import { Journal, JournalSource } from './journal';

/** A paid order as the ledger remembers it from its OrderPaid event. */
export interface PaidOrder {
  orderId: string;
  amount: number;
  currency: string;
}

/** What an event books: one journal, or nothing (with the reason, for logs and answers). */
export type Posting = { action: 'BOOK'; journal: Journal } | { action: 'SKIP'; reason: string };

/** OrderPaid: the provider confirmed the money, Dr payment clearing / Cr sales revenue. */
export function orderPaidPosting(event: EventEnvelope<OrderPaidV1Payload>): Posting {
  const { orderId, amount, currency, payOrderId } = event.payload;
  return book(
    Journal.create({
      source: sourceOf(event, orderId),
      kind: 'PAYMENT',
      currency,
      description: `payment ${payOrderId} for order ${orderId}`,
      lines: [
        { accountCode: Accounts.PAYMENT_CLEARING.code, debit: amount },
        { accountCode: Accounts.SALES_REVENUE.code, credit: amount },
      ],
    }),
  );
}

/** FulfillmentDone: a coupon was granted, Dr coupon expense / Cr coupon liability. */
export function fulfillmentDonePosting(event: EventEnvelope<FulfillmentDoneV1Payload>): Posting {
  const { orderId, couponValue, couponCode, currency } = event.payload;
  if (couponValue === 0) return { action: 'SKIP', reason: 'coupon of value 0' };
  return book(
    Journal.create({
      source: sourceOf(event, orderId),
      kind: 'COUPON_GRANT',
      currency,
      description: `coupon ${couponCode} granted for order ${orderId}`,
      lines: [
        { accountCode: Accounts.COUPON_EXPENSE.code, debit: couponValue },
        { accountCode: Accounts.COUPON_LIABILITY.code, credit: couponValue },
      ],
    }),
  );
}

/** FulfillmentReverted: the coupon was revoked, the grant's postings reversed. */
export function fulfillmentRevertedPosting(
  event: EventEnvelope<FulfillmentRevertedV1Payload>,
): Posting {
  const { orderId, couponValue, couponCode, currency, reason } = event.payload;
  if (couponValue === 0) return { action: 'SKIP', reason: 'coupon of value 0' };
  return book(
    Journal.create({
      source: sourceOf(event, orderId),
      kind: 'COUPON_REVOKE',
      currency,
      description: `coupon ${couponCode} revoked for order ${orderId}: ${reason}`.slice(0, 255),
      lines: [
        { accountCode: Accounts.COUPON_LIABILITY.code, debit: couponValue },
        { accountCode: Accounts.COUPON_EXPENSE.code, credit: couponValue },
      ],
    }),
  );
}

/**
 * OrderCancelled: when the order was paid, the sale is reversed into refunds payable
 * (Dr sales revenue / Cr refunds payable); an order never paid booked nothing to undo.
 */
export function orderCancelledPosting(
  event: EventEnvelope<OrderCancelledV1Payload>,
  paid: PaidOrder | undefined,
): Posting {
  const { orderId, reason } = event.payload;
  if (!paid) return { action: 'SKIP', reason: 'order was never paid' };
  return book(
    Journal.create({
      source: sourceOf(event, orderId),
      kind: 'REFUND',
      currency: paid.currency,
      description: `refund owed for cancelled order ${orderId}: ${reason}`.slice(0, 255),
      lines: [
        { accountCode: Accounts.SALES_REVENUE.code, debit: paid.amount },
        { accountCode: Accounts.REFUNDS_PAYABLE.code, credit: paid.amount },
      ],
    }),
  );
}

function book(journal: Journal): Posting {
  return { action: 'BOOK', journal };
}

function sourceOf(event: EventEnvelope, orderId: string): JournalSource {
  return {
    eventKey: event.eventKey,
    eventType: event.eventType,
    eventId: event.eventId,
    orderId,
    occurredAt: new Date(event.occurredAt),
  };
}
