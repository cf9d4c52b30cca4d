import type { DeadLetterDrill } from './dead-letter-drill';
import type { DeadLetterView, DemoConsumer } from './inbox-api';
import type { OrderState, RunState } from './run-state';

// Runs as the services would report them, for the demo's specs.

type InboxRow = OrderState['inbox'][DemoConsumer][number];

/**
 * An order at rest: paid once, fulfilled, booked, with the inbox rows the two consumers keep of
 * its events (OrderCreated and OrderPaymentStarted ignored, the rest applied).
 */
export function orderAtRest(id: string, duplicates = 0): OrderState {
  const row = (eventKey: string, outcome = 'applied'): InboxRow => ({
    eventKey,
    outcome,
    duplicateCount: 0,
  });
  const orderEvents = [
    row(`OrderCreated:${id}:1`, 'ignored'),
    row(`OrderPaymentStarted:${id}:2`, 'ignored'),
    { ...row(`OrderPaid:${id}:3`), duplicateCount: duplicates },
  ];
  return {
    id,
    status: 'PAID',
    paidTransitions: 1,
    fulfillmentId: `f${id}`,
    fulfillmentStatus: 'DONE',
    couponAttempts: 1,
    couponCode: `C-${id}`,
    journals: { PAYMENT: 1, COUPON_GRANT: 1 },
    unsent: 0,
    inbox: {
      'fulfillment-service': orderEvents,
      'accounting-service': [...orderEvents, row(`FulfillmentDone:f${id}:1`)],
    },
    unavailable: '',
  };
}

/** A dead letter of `eventKey` (`Type:aggregateId:version`), replayed or not. */
export function deadLetter(
  eventKey: string,
  offset: number,
  replayedAt: string | null,
  errorCode = 'NON_RETRYABLE',
): DeadLetterView {
  const [eventType, key] = eventKey.split(':');
  return {
    partition: 0,
    offset: String(offset),
    key,
    eventType,
    eventKey,
    errorCode,
    error: `${errorCode}: planted`,
    replayedAt,
  };
}

/** A run of `orders`, with no dead letter and a clean ledger unless given. */
export function runOf(
  orders: OrderState[],
  deadLetters: Partial<RunState['deadLetters']> = {},
): RunState {
  return {
    orders,
    deadLetters: { 'fulfillment-service': [], 'accounting-service': [], ...deadLetters },
    ledger: { clean: true, mismatches: 0 },
  };
}

/** The drill as it went: its order's two events dead-lettered at the ledger, then replayed. */
export function drillOf(
  orderId: string,
  letters: DeadLetterView[],
  replayed = letters.length,
): DeadLetterDrill {
  return {
    orderId,
    currency: 'CHF',
    consumer: 'accounting-service',
    deadLettered: letters,
    wouldReplay: letters.length,
    retryTopic: 'trading.accounting-service.retry',
    replayed,
    booked: replayed > 0,
  };
}
