// The order-service's transactions of one order's life as bare mysql2 statements: the SQL of
// OrdersRepository, OrderIdempotencyRepository, OrderTransitionsRepository,
// PayNotificationsRepository and OutboxWriter, in the order OrdersService and PayCallbackService
// run them, each command in its own transaction. No Nest, TypeORM, validation or HTTP.
import { createHash, randomUUID } from 'node:crypto';
import { EventEnvelope } from '@outbox-inbox/messaging';
import { PoolConnection } from 'mysql2/promise';
import {
  envelopeOf,
  inTransaction,
  insertOutboxRow,
  RawTransaction,
  WriteResult,
} from './raw-transaction';

/** One order as the raw chain carries it from step to step. */
export interface RawOrder {
  id: string;
  userId: string;
  amount: number;
  currency: string;
  version: number;
  payOrderId: string;
  correlationId: string;
  createdAt: Date;
}

const COLUMNS =
  'id, user_id, amount, currency, status, version, pay_order_id, settled_by_notify_id, ' +
  'close_reason, created_at, updated_at, paid_at, cancelled_at';

async function readOrder(tx: RawTransaction, id: string): Promise<void> {
  const rows = await tx.query<unknown[]>(`SELECT ${COLUMNS} FROM t_order WHERE id = ?`, [id]);
  if (rows.length !== 1) throw new Error(`order ${id} not found`);
}

async function casUpdate(
  tx: RawTransaction,
  order: RawOrder,
  next: { status: string; notifyId: string | null; now: Date; paidAt: Date | null },
): Promise<void> {
  const result = await tx.query<WriteResult>(
    `UPDATE t_order
        SET status = ?, version = ?, pay_order_id = ?, settled_by_notify_id = ?,
            close_reason = ?, updated_at = ?, paid_at = ?, cancelled_at = ?
      WHERE id = ? AND version = ?`,
    [
      next.status,
      order.version + 1,
      order.payOrderId,
      next.notifyId,
      null,
      next.now,
      next.paidAt,
      null,
      order.id,
      order.version,
    ],
  );
  if (result.affectedRows !== 1) throw new Error(`order ${order.id} moved under the bench`);
  order.version += 1;
}

async function recordTransition(
  tx: RawTransaction,
  order: RawOrder,
  status: string,
  eventType: string,
  cause: string | null,
  at: Date,
): Promise<void> {
  await tx.query(
    `INSERT INTO t_order_transition (order_id, version, status, event_type, cause, occurred_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
    [order.id, order.version, status, eventType, cause, at],
  );
}

/** POST /orders with an Idempotency-Key: key lookup, order, transition, OrderCreated, key. */
export function createOrder(
  connection: PoolConnection,
  input: { userId: string; amount: number },
): Promise<{ order: RawOrder; event: EventEnvelope }> {
  const key = randomUUID();
  const requestHash = createHash('sha256')
    .update(JSON.stringify([input.userId, input.amount, 'EUR']))
    .digest('hex');
  return inTransaction(connection, async (tx) => {
    await tx.query(
      `SELECT request_hash, order_id, response_status, response_body
         FROM t_order_idempotency WHERE idempotency_key = ?`,
      [key],
    );
    const now = new Date();
    const inserted = await tx.query<WriteResult>(
      `INSERT INTO t_order (user_id, amount, currency, status, version, pay_order_id,
         settled_by_notify_id, close_reason, created_at, updated_at, paid_at, cancelled_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [input.userId, input.amount, 'EUR', 'CREATED', 1, null, null, null, now, now, null, null],
    );
    const order: RawOrder = {
      id: String(inserted.insertId),
      ...input,
      currency: 'EUR',
      version: 1,
      payOrderId: '',
      correlationId: randomUUID(),
      createdAt: now,
    };
    await recordTransition(tx, order, 'CREATED', 'OrderCreated', key, now);
    const event = envelopeOf(
      'OrderCreated',
      'Order',
      order.id,
      1,
      {
        orderId: order.id,
        userId: order.userId,
        amount: order.amount,
        currency: order.currency,
        createdAt: now.toISOString(),
      },
      order.correlationId,
      key,
    );
    await insertOutboxRow(tx, event);
    const view = {
      id: order.id,
      userId: order.userId,
      amount: order.amount,
      currency: order.currency,
      status: 'CREATED',
      version: 1,
      payOrderId: null,
      closeReason: null,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      paidAt: null,
      cancelledAt: null,
    };
    await tx.query(
      `INSERT INTO t_order_idempotency
         (idempotency_key, request_hash, order_id, response_status, response_body, created_at)
       VALUES (?, ?, ?, ?, ?, UTC_TIMESTAMP(3))`,
      [key, requestHash, order.id, 201, JSON.stringify(view)],
    );
    return { order, event };
  });
}

/** POST /orders/:id/pay: read, compare-and-set to PAYING, transition, OrderPaymentStarted. */
export function startPayment(connection: PoolConnection, order: RawOrder): Promise<EventEnvelope> {
  return inTransaction(connection, async (tx) => {
    await readOrder(tx, order.id);
    const now = new Date();
    order.payOrderId = `pay_${randomUUID().replace(/-/g, '')}`;
    await casUpdate(tx, order, { status: 'PAYING', notifyId: null, now, paidAt: null });
    await recordTransition(tx, order, 'PAYING', 'OrderPaymentStarted', null, now);
    const event = envelopeOf(
      'OrderPaymentStarted',
      'Order',
      order.id,
      order.version,
      {
        orderId: order.id,
        payOrderId: order.payOrderId,
        amount: order.amount,
        currency: order.currency,
        startedAt: now.toISOString(),
      },
      order.correlationId,
    );
    await insertOutboxRow(tx, event);
    return event;
  });
}

/**
 * The pay callback: notifyId lookup, order read, notification claimed with its answer,
 * compare-and-set to PAID, transition, OrderPaid.
 */
export function payCallback(connection: PoolConnection, order: RawOrder): Promise<EventEnvelope> {
  const notifyId = `ntf_${randomUUID()}`;
  return inTransaction(connection, async (tx) => {
    await tx.query(
      `SELECT order_id, pay_order_id, amount, currency, status, changed_order, answer
         FROM t_pay_notification WHERE notify_id = ?`,
      [notifyId],
    );
    await readOrder(tx, order.id);
    const answer = {
      result: 'SUCCESS',
      orderId: order.id,
      payOrderId: order.payOrderId,
      orderStatus: 'PAID',
    };
    await tx.query(
      `INSERT INTO t_pay_notification
         (notify_id, order_id, pay_order_id, amount, currency, status, changed_order, answer,
          created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, UTC_TIMESTAMP(3))`,
      [
        notifyId,
        order.id,
        order.payOrderId,
        order.amount,
        order.currency,
        'SUCCESS',
        1,
        JSON.stringify(answer),
      ],
    );
    const now = new Date();
    await casUpdate(tx, order, { status: 'PAID', notifyId, now, paidAt: now });
    await recordTransition(tx, order, 'PAID', 'OrderPaid', notifyId, now);
    const event = envelopeOf(
      'OrderPaid',
      'Order',
      order.id,
      order.version,
      {
        orderId: order.id,
        userId: order.userId,
        payOrderId: order.payOrderId,
        notifyId,
        amount: order.amount,
        currency: order.currency,
        paidAt: now.toISOString(),
      },
      order.correlationId,
      notifyId,
    );
    await insertOutboxRow(tx, event);
    return event;
  });
}
