/** The rules the checker applies; each violation names one. */
export type InvariantRule =
  | 'paid-order-has-one-order-paid-event'
  | 'order-paid-event-has-paid-order'
  | 'sent-event-is-in-topic'
  | 'topic-message-has-outbox-row'
  | 'paid-order-has-one-fulfillment'
  | 'fulfillment-has-paid-order'
  | 'done-fulfillment-has-one-coupon'
  | 'one-grant-per-idempotency-key'
  | 'paid-order-has-one-payment-journal'
  | 'payment-journal-matches-order'
  | 'coupon-grant-has-one-journal'
  | 'journal-is-balanced'
  | 'balance-equals-journal-lines'
  | 'versions-applied-in-order'
  | 'every-event-accounted-for'
  | 'nothing-in-flight';

/** One broken promise, with the ids an operator needs to look at. */
export interface Violation {
  rule: InvariantRule;
  message: string;
  ids: string[];
}

/** What was seen that is allowed, but worth reporting: the at-least-once machinery at work. */
export interface Observations {
  paidOrders: number;
  topicMessages: number;
  /** Extra copies of one event in its topic (relay resends after a crash or timeout). */
  duplicateDeliveries: number;
  /** Event keys with more than one copy in their topic (first ones listed). */
  duplicatedEventKeys: string[];
  /** Outbox rows DEAD: never published, listed for requeue. */
  deadOutboxRows: string[];
  /** Events parked by a consumer, waiting for an earlier version: `consumer eventKey`. */
  parkedEvents: string[];
  /** Events a consumer dead-lettered and has not applied since: `consumer eventKey`. */
  deadLetteredEvents: string[];
  /** Events not yet past the consumer's committed offset, nor recorded: `consumer eventKey`. */
  inFlightEvents: string[];
  /** Outbox rows NEW or SENDING. */
  unsentOutboxRows: string[];
  /** Fulfillments still granting (INIT or FAILED and due for retry). */
  pendingFulfillments: string[];
}

/** The checker's answer: ok when there is no violation. */
export interface InvariantReport {
  ok: boolean;
  checkedAt: string;
  violations: Violation[];
  observations: Observations;
}
