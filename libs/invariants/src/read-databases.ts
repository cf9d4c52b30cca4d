import { Connection, createConnection } from 'mysql2/promise';
import {
  AccountRow,
  CouponRow,
  FulfillmentRow,
  GateRowView,
  InboxRow,
  JournalRow,
  OrderRow,
  OutboxRowView,
  ParkedRow,
} from './snapshot';

type Row = Record<string, unknown>;
type Query = (sql: string, params?: unknown[]) => Promise<Row[]>;

/**
 * Runs `read` on one database inside a read-only consistent snapshot, so that rows committing
 * meanwhile cannot show a half-done transaction (an inbox row without its effect).
 */
export async function inSnapshot<T>(
  mysqlUrl: string,
  database: string,
  read: (query: Query) => Promise<T>,
): Promise<T> {
  const connection: Connection = await createConnection({
    uri: `${mysqlUrl}/${database}`,
    // Big ids and sums stay exact.
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: false,
  });
  try {
    await connection.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    await connection.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
    const result = await read(
      async (sql, params) => (await connection.query(sql, params))[0] as Row[],
    );
    await connection.query('COMMIT');
    return result;
  } finally {
    await connection.end();
  }
}

const str = (value: unknown): string => String(value);
const num = (value: unknown): number => Number(value);
const strOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

export async function readOrders(query: Query): Promise<OrderRow[]> {
  const rows = await query(
    'SELECT id, status, amount, currency, paid_at, created_at FROM t_order ORDER BY id',
  );
  return rows.map((r) => ({
    id: str(r.id),
    status: str(r.status),
    amount: num(r.amount),
    currency: str(r.currency),
    paidAt: r.paid_at ? new Date(r.paid_at as Date) : null,
    createdAt: new Date(r.created_at as Date),
  }));
}

export async function readOutbox(query: Query): Promise<OutboxRowView[]> {
  const rows = await query(
    `SELECT id, event_key, event_type, aggregate_type, aggregate_id, aggregate_version, status,
       retry_count, last_error, created_at FROM t_outbox ORDER BY id`,
  );
  return rows.map((r) => ({
    id: str(r.id),
    eventKey: str(r.event_key),
    eventType: str(r.event_type),
    aggregateType: str(r.aggregate_type),
    aggregateId: str(r.aggregate_id),
    aggregateVersion: num(r.aggregate_version),
    status: str(r.status),
    retryCount: num(r.retry_count),
    lastError: strOrNull(r.last_error),
    createdAt: new Date(r.created_at as Date),
  }));
}

export async function readFulfillments(query: Query): Promise<FulfillmentRow[]> {
  const rows = await query(
    'SELECT order_id, type, status, grant_key, coupon_code, coupon_value FROM t_fulfillment',
  );
  return rows.map((r) => ({
    orderId: str(r.order_id),
    type: str(r.type),
    status: str(r.status),
    grantKey: str(r.grant_key),
    couponCode: strOrNull(r.coupon_code),
    couponValue: num(r.coupon_value),
  }));
}

export async function readCoupons(query: Query): Promise<CouponRow[]> {
  const rows = await query('SELECT coupon_code, idempotency_key, order_id, status FROM t_coupon');
  return rows.map((r) => ({
    couponCode: str(r.coupon_code),
    idempotencyKey: str(r.idempotency_key),
    orderId: str(r.order_id),
    status: str(r.status),
  }));
}

export async function readJournals(query: Query): Promise<JournalRow[]> {
  const journals = await query(
    `SELECT id, kind, order_id, source_event_key, currency, total_debit, total_credit
     FROM t_journal ORDER BY id`,
  );
  const lines = await query(
    'SELECT journal_id, account_code, currency, debit, credit FROM t_journal_line ORDER BY id',
  );
  const byJournal = new Map<string, JournalRow['lines']>();
  for (const l of lines) {
    const list = byJournal.get(str(l.journal_id)) ?? [];
    list.push({
      accountCode: str(l.account_code),
      currency: str(l.currency),
      debit: num(l.debit),
      credit: num(l.credit),
    });
    byJournal.set(str(l.journal_id), list);
  }
  return journals.map((j) => ({
    id: str(j.id),
    kind: str(j.kind),
    orderId: str(j.order_id),
    sourceEventKey: str(j.source_event_key),
    currency: str(j.currency),
    totalDebit: num(j.total_debit),
    totalCredit: num(j.total_credit),
    lines: byJournal.get(str(j.id)) ?? [],
  }));
}

export async function readAccounts(query: Query): Promise<AccountRow[]> {
  const rows = await query('SELECT code, currency, balance FROM t_account');
  return rows.map((r) => ({
    code: str(r.code),
    currency: str(r.currency),
    balance: num(r.balance),
  }));
}

/** One consumer's inbox, version gate and parking lot. */
export async function readInbox(
  query: Query,
  consumer: string,
): Promise<{ inbox: InboxRow[]; gates: GateRowView[]; parked: ParkedRow[] }> {
  const inbox = await query(
    `SELECT id, event_key, event_type, outcome FROM t_inbox WHERE consumer = ? ORDER BY id`,
    [consumer],
  );
  const gates = await query(
    `SELECT aggregate_type, aggregate_id, last_version, parked_count FROM t_inbox_version
     WHERE consumer = ?`,
    [consumer],
  );
  const parked = await query(
    `SELECT aggregate_type, aggregate_id, aggregate_version, event_key FROM t_inbox_parked
     WHERE consumer = ?`,
    [consumer],
  );
  return {
    inbox: inbox.map((r) => ({
      id: str(r.id),
      eventKey: str(r.event_key),
      eventType: str(r.event_type),
      outcome: str(r.outcome),
    })),
    gates: gates.map((r) => ({
      aggregateType: str(r.aggregate_type),
      aggregateId: str(r.aggregate_id),
      lastVersion: num(r.last_version),
      parkedCount: num(r.parked_count),
    })),
    parked: parked.map((r) => ({
      aggregateType: str(r.aggregate_type),
      aggregateId: str(r.aggregate_id),
      aggregateVersion: num(r.aggregate_version),
      eventKey: str(r.event_key),
    })),
  };
}
