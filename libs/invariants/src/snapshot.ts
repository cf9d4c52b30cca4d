/**
 * What the checker read from every service, as plain data: the rules are pure functions of
 * it, so each one is unit-tested on hand-made snapshots and the reading is tested once.
 * Ids are strings, as everywhere they leave a process.
 */
export interface Snapshot {
  orders: OrderRow[];
  /** t_outbox of each producing service, by service name. */
  outbox: Record<string, OutboxRowView[]>;
  fulfillments: FulfillmentRow[];
  coupons: CouponRow[];
  journals: JournalRow[];
  accounts: AccountRow[];
  /** Per consumer: what its inbox, version gate and parking lot hold. */
  consumers: ConsumerSnapshot[];
  /** Every message of the event topics, with its envelope fields. */
  topicMessages: TopicMessage[];
}

export interface OrderRow {
  id: string;
  status: string;
  amount: number;
  currency: string;
  /** Null while the order never reached PAID. */
  paidAt: Date | null;
  createdAt: Date;
}

export interface OutboxRowView {
  id: string;
  eventKey: string;
  eventType: string;
  aggregateType: string;
  aggregateId: string;
  aggregateVersion: number;
  status: string;
  retryCount: number;
  lastError: string | null;
  createdAt: Date;
}

export interface FulfillmentRow {
  orderId: string;
  type: string;
  status: string;
  grantKey: string;
  couponCode: string | null;
  couponValue: number;
}

export interface CouponRow {
  couponCode: string;
  idempotencyKey: string;
  orderId: string;
  status: string;
}

export interface JournalLineRow {
  accountCode: string;
  currency: string;
  debit: number;
  credit: number;
}

export interface JournalRow {
  id: string;
  kind: string;
  orderId: string;
  sourceEventKey: string;
  currency: string;
  totalDebit: number;
  totalCredit: number;
  lines: JournalLineRow[];
}

export interface AccountRow {
  code: string;
  currency: string;
  balance: number;
}

export interface InboxRow {
  id: string;
  eventKey: string;
  eventType: string;
  outcome: string;
}

export interface GateRowView {
  aggregateType: string;
  aggregateId: string;
  lastVersion: number;
  parkedCount: number;
}

export interface ParkedRow {
  aggregateType: string;
  aggregateId: string;
  aggregateVersion: number;
  eventKey: string;
}

/** A dead-lettered message of one consumer, by the event it carried (when it had one). */
export interface DeadLetterView {
  offset: string;
  eventKey: string | null;
  sourceTopic: string;
  sourcePartition: number;
  sourceOffset: string;
  errorCode: string;
}

export interface ConsumerSnapshot {
  name: string;
  topics: string[];
  /** How its version gate treats an unseen aggregate (InboxModule's gateStart). */
  gateStart: 'version-1' | 'first-seen';
  inbox: InboxRow[];
  gates: GateRowView[];
  parked: ParkedRow[];
  deadLetters: DeadLetterView[];
  /** Committed offset per `topic:partition` (the next message the group will read); absent = none. */
  committed: Record<string, bigint>;
}

export interface TopicMessage {
  topic: string;
  partition: number;
  offset: bigint;
  timestamp: Date;
  /** The envelope's fields; null when a header is missing (a foreign message). */
  eventKey: string | null;
  eventType: string | null;
  aggregateType: string | null;
  aggregateId: string | null;
  aggregateVersion: number | null;
  /** The parsed envelope payload; null when the value is not an envelope. */
  payload: Record<string, unknown> | null;
}
