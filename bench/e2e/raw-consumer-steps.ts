// The consumers' transactions of one order's life as bare mysql2 statements: the inbox row and
// version gate (SqlInboxStore on MySQL), the fulfillment with its coupon grant and FulfillmentDone
// (FulfillmentRepository, CouponsRepository, OutboxWriter), and the two journals with their
// balance updates and lines (LedgerRepository), each event in its own transaction as the
// inbox runs it. No Kafka, Nest, TypeORM, validation or HTTP.
import { createHash, randomBytes } from 'node:crypto';
import { EventEnvelope } from '@outbox-inbox/messaging';
import { FulfillmentDoneV1Payload, OrderPaidV1Payload } from '@app/trading-events';
import { PoolConnection } from 'mysql2/promise';
import {
  admit,
  envelopeOf,
  inTransaction,
  insertOutboxRow,
  RawTransaction,
  WriteResult,
} from './raw-transaction';

export const FULFILLMENT = 'fulfillment-service';
export const ACCOUNTING = 'accounting-service';
/** The fulfillment-service's default COUPON_RATE_BPS. */
const COUPON_RATE_BPS = 500;

/** An account of the ledger's chart, as t_account stores it. */
export interface LedgerAccount {
  code: string;
  name: string;
  type: string;
}

/** The accounts the two journals book (the chart is passed in by the bench script). */
export interface LedgerAccounts {
  paymentClearing: LedgerAccount;
  salesRevenue: LedgerAccount;
  couponExpense: LedgerAccount;
  couponLiability: LedgerAccount;
}

/** An event the consumer takes in but has no handler for: inbox row and gate only. */
export function ignoreEvent(
  connection: PoolConnection,
  consumer: string,
  event: EventEnvelope,
): Promise<void> {
  return inTransaction(connection, (tx) => admit(tx, consumer, event, 'ignored'));
}

async function fulfillmentTransition(
  tx: RawTransaction,
  id: string,
  version: number,
  status: string,
  attempts: number,
  at: Date,
): Promise<void> {
  await tx.query(
    `INSERT INTO t_fulfillment_transition
       (fulfillment_id, version, status, attempts, last_error, occurred_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
    [id, version, status, attempts, null, at],
  );
}

/** What the fulfillment asks the coupon-provider to grant. */
export interface CouponGrant {
  key: string;
  userId: string;
  orderId: string;
  value: number;
  currency: string;
}

/** The coupon-provider's grant: claim the idempotency key, insert the coupon, read the key. */
export function grantCoupon(connection: PoolConnection, grant: CouponGrant): Promise<string> {
  const paramsHash = createHash('sha256')
    .update(JSON.stringify([grant.userId, grant.orderId, grant.value, grant.currency]))
    .digest('hex');
  const code = `CPN-${randomBytes(9).toString('base64url').toUpperCase()}`;
  return inTransaction(connection, async (tx) => {
    const now = new Date();
    const claim = await tx.query<WriteResult>(
      `INSERT INTO t_coupon_idempotency
         (idempotency_key, params_hash, coupon_code, requests, first_request_at, last_request_at)
       VALUES (?, ?, ?, 1, ?, ?)
       ON DUPLICATE KEY UPDATE requests = requests + 1, last_request_at = ?`,
      [grant.key, paramsHash, code, now, now, now],
    );
    if (claim.affectedRows !== 1) throw new Error(`coupon key ${grant.key} was used before`);
    await tx.query(
      `INSERT INTO t_coupon (coupon_code, idempotency_key, user_id, order_id, value, currency,
         status, granted_at, revoked_at)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, NULL FROM t_coupon_idempotency
        WHERE idempotency_key = ? AND coupon_code = ? AND requests = 1`,
      [
        code,
        grant.key,
        grant.userId,
        grant.orderId,
        grant.value,
        grant.currency,
        'GRANTED',
        now,
        grant.key,
        code,
      ],
    );
    await tx.query(
      'SELECT params_hash, coupon_code FROM t_coupon_idempotency WHERE idempotency_key = ?',
      [grant.key],
    );
    return code;
  });
}

/**
 * OrderPaid at the fulfillment-service: inbox row and gate, the fulfillment row (with its
 * transition), its row lock, the coupon grant (`grant`: the coupon-provider's transaction, or
 * an HTTP call to it) while the lock is held (as the service calls the provider inside its
 * transaction), DONE with its transition and FulfillmentDone in the outbox. Returns
 * FulfillmentDone.
 */
export function fulfillOrderPaid(
  fulfillmentDb: PoolConnection,
  grant: (request: CouponGrant) => Promise<string>,
  paid: EventEnvelope<OrderPaidV1Payload>,
): Promise<EventEnvelope<FulfillmentDoneV1Payload>> {
  const { orderId, userId, amount, currency } = paid.payload;
  const couponValue = Math.max(1, Math.floor((amount * COUPON_RATE_BPS) / 10_000));
  return inTransaction(fulfillmentDb, async (tx) => {
    await admit(tx, FULFILLMENT, paid, 'applied');
    const now = new Date();
    const inserted = await tx.query<WriteResult>(
      `INSERT INTO t_fulfillment (order_id, type, user_id, status, version, event_version, grant_key,
         coupon_value, currency, attempts, created_at, updated_at)
       VALUES (?, ?, ?, ?, 1, 0, ?, ?, ?, 0, ?, ?)
       ON DUPLICATE KEY UPDATE id = id`,
      [orderId, 'COUPON', userId, 'INIT', paid.eventKey, couponValue, currency, now, now],
    );
    const id = String(inserted.insertId);
    await fulfillmentTransition(tx, id, 1, 'INIT', 0, now);
    await tx.query(
      `SELECT id, order_id, user_id, status, version, event_version, grant_key, coupon_value,
         currency, coupon_code, attempts, next_attempt_at, last_error
       FROM t_fulfillment WHERE order_id = ? AND type = ? FOR UPDATE`,
      [orderId, 'COUPON'],
    );
    const couponCode = await grant({
      key: paid.eventKey,
      userId,
      orderId,
      value: couponValue,
      currency,
    });
    const doneAt = new Date();
    const saved = await tx.query<WriteResult>(
      `UPDATE t_fulfillment SET status = ?, version = ?, event_version = ?, coupon_code = ?,
         attempts = ?, next_attempt_at = ?, last_error = ?, updated_at = ?
       WHERE id = ? AND version = ?`,
      ['DONE', 2, 1, couponCode, 1, null, null, doneAt, id, 1],
    );
    if (saved.affectedRows !== 1) throw new Error(`fulfillment ${id} moved under the bench`);
    await fulfillmentTransition(tx, id, 2, 'DONE', 1, doneAt);
    const done = envelopeOf<FulfillmentDoneV1Payload>(
      'FulfillmentDone',
      'Fulfillment',
      id,
      1,
      {
        fulfillmentId: id,
        orderId,
        userId,
        type: 'COUPON',
        couponCode,
        couponValue,
        currency,
        doneAt: doneAt.toISOString(),
      },
      paid.correlationId ?? `order-${orderId}`,
      paid.eventId,
    );
    await insertOutboxRow(tx, done);
    return done;
  });
}

interface RawJournal {
  kind: string;
  description: string;
  amount: number;
  /** Debited account first, credited second. */
  debit: LedgerAccount;
  credit: LedgerAccount;
}

/** LedgerService.post: journal header, balances in account-code order, lines. */
async function book(tx: RawTransaction, event: EventEnvelope, orderId: string, j: RawJournal) {
  const currency = (event.payload as { currency: string }).currency;
  const now = new Date();
  const header = await tx.query<WriteResult>(
    `INSERT INTO t_journal (source_event_key, source_event_id, event_type, kind, order_id,
       currency, total_debit, total_credit, description, occurred_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      event.eventKey,
      event.eventId,
      event.eventType,
      j.kind,
      orderId,
      currency,
      j.amount,
      j.amount,
      j.description,
      new Date(event.occurredAt),
      now,
    ],
  );
  const changes = [
    { account: j.debit, delta: j.amount },
    { account: j.credit, delta: -j.amount },
  ].sort((a, b) => (a.account.code < b.account.code ? -1 : 1));
  for (const { account, delta } of changes) {
    await tx.query(
      `INSERT INTO t_account (code, currency, name, type, balance, version, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 1, ?, ?)
       ON DUPLICATE KEY UPDATE balance = balance + ?, version = version + 1, updated_at = ?`,
      [account.code, currency, account.name, account.type, delta, now, now, delta, now],
    );
  }
  await tx.query(
    `INSERT INTO t_journal_line (journal_id, line_no, account_code, currency, debit, credit)
     VALUES (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?)`,
    [
      ...[header.insertId, 1, j.debit.code, currency, j.amount, 0],
      ...[header.insertId, 2, j.credit.code, currency, 0, j.amount],
    ],
  );
}

/** OrderPaid at the accounting-service: inbox row and gate, the payment journal, the paid order. */
export function bookOrderPaid(
  connection: PoolConnection,
  paid: EventEnvelope<OrderPaidV1Payload>,
  accounts: LedgerAccounts,
): Promise<void> {
  const { orderId, payOrderId, amount, currency, paidAt } = paid.payload;
  return inTransaction(connection, async (tx) => {
    await admit(tx, ACCOUNTING, paid, 'applied');
    await book(tx, paid, orderId, {
      kind: 'PAYMENT',
      description: `payment ${payOrderId} for order ${orderId}`,
      amount,
      debit: accounts.paymentClearing,
      credit: accounts.salesRevenue,
    });
    await tx.query(
      `INSERT INTO t_paid_order (order_id, pay_order_id, amount, currency, paid_at,
         source_event_key, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON DUPLICATE KEY UPDATE order_id = order_id`,
      [orderId, payOrderId, amount, currency, new Date(paidAt), paid.eventKey, new Date()],
    );
  });
}

/** FulfillmentDone at the accounting-service: inbox row and gate, the coupon journal. */
export function bookFulfillmentDone(
  connection: PoolConnection,
  done: EventEnvelope<FulfillmentDoneV1Payload>,
  accounts: LedgerAccounts,
): Promise<void> {
  const { orderId, couponCode, couponValue } = done.payload;
  return inTransaction(connection, async (tx) => {
    await admit(tx, ACCOUNTING, done, 'applied');
    await book(tx, done, orderId, {
      kind: 'COUPON_GRANT',
      description: `coupon ${couponCode} granted for order ${orderId}`,
      amount: couponValue,
      debit: accounts.couponExpense,
      credit: accounts.couponLiability,
    });
  });
}
