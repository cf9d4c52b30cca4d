/**
 * The rules the checker applies, and what each compares. The rule table in docs/guarantees.md
 * is checked against this list by a test.
 */
export const INVARIANT_RULES = {
  'paid-order-has-one-order-paid-event':
    'orders that reached PAID ↔ OrderPaid events in their durable history, exactly one each',
  'order-paid-event-has-paid-order': 'OrderPaid events in the history ⊆ orders that reached PAID',
  'outbox-row-matches-history':
    'retained outbox rows ↔ the event their aggregate recorded (same version and type)',
  'sent-event-is-in-topic':
    'outbox rows marked SENT ⊆ messages in the topics, above each partition’s low watermark',
  'topic-message-has-outbox-row':
    'messages of the chain’s event types in the topics ⊆ outbox rows, or (pruned) events their aggregate recorded',
  'paid-order-has-one-fulfillment':
    'OrderPaid events the fulfillment gate passed ↔ fulfillments, exactly one each, under the event’s key',
  'fulfillment-has-paid-order':
    'fulfillments ⊆ paid orders; a CANCELLED marker ⊆ cancelled orders; REVERTED or cancelled ⊆ orders cancelled after payment',
  'done-fulfillment-has-one-coupon':
    'DONE / REVERTED fulfillments ↔ one coupon under their key and code, GRANTED / REVOKED; none for a cancelled one',
  'coupon-has-fulfillment':
    'coupons ⊆ fulfillments of their order that granted them (same idempotency key and code)',
  'one-coupon-per-order': 'no order has more than one coupon, whatever the key',
  'one-grant-per-idempotency-key': 'no idempotency key produced two coupons',
  'paid-order-has-one-payment-journal':
    'OrderPaid events the ledger’s gate passed ↔ PAYMENT journals, one each, under the event’s key',
  'payment-journal-matches-order':
    'PAYMENT journals ⊆ paid orders, with the order’s amount and currency',
  'refund-matches-cancelled-payment':
    'REFUND journals ↔ orders cancelled after payment (the OrderCancelled after the OrderPaid), one each, for the amount paid',
  'coupon-grant-has-one-journal':
    'FulfillmentDone events of value the ledger’s gate passed ↔ COUPON_GRANT journals, one each, for the coupon’s value',
  'coupon-revoke-has-one-journal':
    'FulfillmentReverted events of value the ledger’s gate passed ↔ COUPON_REVOKE journals, one each',
  'journal-is-balanced':
    'every journal: at least two lines, one currency, debits = credits = its totals',
  'balance-equals-journal-lines': 'every account balance = the sum of its journal lines',
  'versions-applied-in-order':
    'per consumer and aggregate: the gate’s last version tops an unbroken run of recorded versions (above the prune watermark); nothing recorded above it; nothing parked at or below it; the lot matches the gate’s count',
  'every-event-accounted-for':
    'every message its group committed past is in the consumer’s inbox, parked or dead-lettered (above the prune watermark)',
  'nothing-in-flight':
    'with --quiescent: no outbox row unsent, no event unconsumed, no fulfillment still granting',
} as const;

/** The rules the checker applies; each violation names one. */
export type InvariantRule = keyof typeof INVARIANT_RULES;

/** One broken promise, with the ids an operator needs to look at. */
export interface Violation {
  rule: InvariantRule;
  message: string;
  /** The offending ids (the first 1,000; `message` gives the count). */
  ids: string[];
}

/**
 * What a rule could not compare because retention removed one side (inbox rows pruned, outbox
 * rows pruned, messages below a topic's low watermark). Never a violation.
 */
export interface NotCheckable {
  rule: InvariantRule;
  count: number;
  reason: string;
}

/** What was seen that is allowed, but worth reporting: the at-least-once machinery at work. */
export interface Observations {
  orders: number;
  paidOrders: number;
  topicMessages: number;
  /** Extra copies of one event in its topic (relay resends after a crash or timeout). */
  duplicateDeliveries: number;
  /** Event keys with more than one copy in their topic, whose outbox row is retained (first 50). */
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
  notCheckable: NotCheckable[];
  observations: Observations;
}
