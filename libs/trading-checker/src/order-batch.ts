import type { ClaimedRow, OutboxStatus } from '@outbox-inbox/outbox';

/**
 * What the checker knows of one page of orders, gathered from every service: the order
 * rules are pure functions of it, so they are unit-tested on hand-made batches, and memory
 * holds one page at a time. Ids are strings, as everywhere they leave a process.
 */
export interface OrderBatch {
  orders: OrderFacts[];
  /** The fulfillments of these orders. */
  fulfillments: FulfillmentFacts[];
  /** The coupons under these fulfillments' grant keys. */
  coupons: CouponFacts[];
  /** The journals of these orders. */
  journals: JournalFacts[];
  /** The retained outbox rows of these orders and of their fulfillments. */
  outbox: OutboxFacts[];
  /** Per consumer: its gate, inbox rows and parked events for these aggregates. */
  consumers: ConsumerFacts[];
}

export interface OrderFacts {
  id: string;
  status: string;
  amount: number;
  currency: string;
  paidAt: Date | null;
  /** Its durable event history (t_order_transition), by version. */
  history: Array<{ version: number; eventType: string }>;
}

export interface FulfillmentFacts {
  id: string;
  orderId: string;
  status: string;
  /** The OrderPaid event key; '' for the CANCELLED marker of an order cancelled unpaid. */
  grantKey: string;
  couponCode: string | null;
  couponValue: number;
  currency: string;
  /** Events emitted: 1 = FulfillmentDone, 2 = FulfillmentReverted. */
  eventVersion: number;
  nextAttemptAt: Date | null;
}

export interface CouponFacts {
  couponCode: string;
  idempotencyKey: string;
  orderId: string;
  status: string;
}

export interface JournalFacts {
  id: string;
  kind: string;
  orderId: string;
  sourceEventKey: string;
  currency: string;
  totalDebit: number;
}

/**
 * A retained outbox row of one service: the fields of the outbox's own row type that the rules
 * compare, its status, and the service whose table it is in.
 */
export type OutboxFacts = Pick<
  ClaimedRow,
  'id' | 'eventKey' | 'eventType' | 'aggregateType' | 'aggregateId' | 'aggregateVersion'
> & {
  service: string;
  status: OutboxStatus;
};

export interface ConsumerFacts {
  name: string;
  /** The aggregate types whose events it takes in. */
  aggregateTypes: string[];
  /** True once its inbox was pruned: a missing row below the oldest retained one may be gone. */
  pruned: boolean;
  /** Last applied version per `aggregateType:aggregateId`, with the gate's parked count. */
  gates: Map<string, { lastVersion: number; parkedCount: number }>;
  /** Inbox outcome per event key (only keys of this batch's events). */
  inbox: Map<string, string>;
  parked: Array<{ aggregate: string; version: number; eventKey: string }>;
  /**
   * Versions an operator skipped on purpose (t_inbox_skip, `ops gap:skip`), as
   * `aggregateType:aggregateId@version`: the gate passed them with no event taken in.
   */
  skipped: Set<string>;
}

/** The events a fulfillment emitted, by version. */
export function fulfillmentEvents(
  f: FulfillmentFacts,
): Array<{ version: number; eventType: string }> {
  const events = [
    { version: 1, eventType: 'FulfillmentDone' },
    { version: 2, eventType: 'FulfillmentReverted' },
  ];
  return events.filter((e) => e.version <= f.eventVersion);
}
