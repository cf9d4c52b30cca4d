// The services' transactions as bare statements on one mysql2 connection: the same SQL, the
// same tables and indexes, READ COMMITTED, but no Nest, no TypeORM, no validation. These are
// the baselines ("raw same-shape transaction rate") that the services are measured against.
import { randomUUID } from 'node:crypto';
import { affectedRows } from '@outbox-inbox/database';
import { envelopeHeaders, EventEnvelope } from '@outbox-inbox/messaging';
import { PoolConnection } from 'mysql2/promise';
// The outbox's own MySQL INSERT, so that this baseline cannot drift from what it measures.
import { mysqlOutboxSql } from '../../packages/outbox/src/store/sql/mysql-outbox-sql';

/** One order a worker owns; `version` is what the row holds now (the CAS expectation). */
export interface OwnedOrder {
  id: string;
  version: number;
  payOrderId: string;
  userId: string;
  amount: number;
}

/** A transaction shape: runs one transaction's statements (between BEGIN and COMMIT). */
export type Shape = (connection: PoolConnection, order: OwnedOrder) => Promise<void>;

const ORDER_COLUMNS =
  'id, user_id, amount, currency, status, version, pay_order_id, settled_by_notify_id, ' +
  'close_reason, created_at, updated_at, paid_at, cancelled_at';

/** Runs `shape` as one READ COMMITTED transaction (the isolation runTransaction uses). */
export async function inTransaction(
  connection: PoolConnection,
  work: () => Promise<void>,
): Promise<void> {
  await connection.query('START TRANSACTION');
  try {
    await work();
    await connection.query('COMMIT');
  } catch (error) {
    await connection.query('ROLLBACK');
    throw error;
  }
}

/** The OrderPaid envelope and headers as OutboxWriter stores them (same size, same fields). */
function paidEvent(order: OwnedOrder, version: number, notifyId: string): [string, string] {
  const now = new Date().toISOString();
  const envelope: EventEnvelope = {
    eventId: randomUUID(),
    eventType: 'OrderPaid',
    eventKey: `OrderPaid:${order.id}:${version}`,
    aggregateType: 'Order',
    aggregateId: order.id,
    aggregateVersion: version,
    occurredAt: now,
    schemaVersion: 1,
    correlationId: `order-${order.id}`,
    causationId: notifyId,
    payload: {
      orderId: order.id,
      userId: order.userId,
      payOrderId: order.payOrderId,
      notifyId,
      amount: order.amount,
      currency: 'EUR',
      paidAt: now,
    },
  } as EventEnvelope;
  return [JSON.stringify(envelope), JSON.stringify(envelopeHeaders(envelope))];
}

async function casUpdate(connection: PoolConnection, order: OwnedOrder, notifyId: string) {
  const now = new Date();
  const [result] = await connection.query(
    `UPDATE t_order
        SET status = ?, version = ?, pay_order_id = ?, settled_by_notify_id = ?,
            close_reason = ?, updated_at = ?, paid_at = ?, cancelled_at = ?
      WHERE id = ? AND version = ?`,
    [
      'PAID',
      order.version + 1,
      order.payOrderId,
      notifyId,
      null,
      now,
      now,
      null,
      order.id,
      order.version,
    ],
  );
  if (affectedRows(result) !== 1) {
    throw new Error(`order ${order.id} was not at version ${order.version}`);
  }
}

async function outboxInsert(connection: PoolConnection, order: OwnedOrder, notifyId: string) {
  const version = order.version + 1;
  const [payload, headers] = paidEvent(order, version, notifyId);
  const { sql, params } = mysqlOutboxSql.insert({
    aggregateType: 'Order',
    aggregateId: order.id,
    aggregateVersion: version,
    eventType: 'OrderPaid',
    eventKey: `OrderPaid:${order.id}:${version}`,
    eventId: randomUUID(),
    payload,
    headers,
  });
  await connection.query(sql, params);
}

/** Order compare-and-set update + outbox insert: every order state change. */
export const casPlusOutbox: Shape = async (connection, order) => {
  const notifyId = `ntf_${randomUUID()}`;
  await inTransaction(connection, async () => {
    await casUpdate(connection, order, notifyId);
    await outboxInsert(connection, order, notifyId);
  });
  order.version += 1;
};

/**
 * The pay callback's transaction: look up the notifyId, read the order, claim the notifyId
 * with the answer, compare-and-set the order, add OrderPaid to the outbox.
 */
export const payCallback: Shape = async (connection, order) => {
  await payCallbackTransaction(connection, order, `ntf_${randomUUID()}`);
};

/**
 * payCallback's transaction for a given notifyId; the compare-and-set expects the version the
 * order read returns (so a caller that knows only the order's id, as an HTTP handler, can
 * pass any `version`). Returns the provider's answer.
 */
export async function payCallbackTransaction(
  connection: PoolConnection,
  order: OwnedOrder,
  notifyId: string,
): Promise<Record<string, string>> {
  const answer = {
    result: 'SUCCESS',
    orderId: order.id,
    payOrderId: order.payOrderId,
    orderStatus: 'PAID',
  };
  await inTransaction(connection, async () => {
    await connection.query(
      `SELECT order_id, pay_order_id, amount, currency, status, changed_order, answer
         FROM t_pay_notification WHERE notify_id = ?`,
      [notifyId],
    );
    const [rows] = await connection.query(`SELECT ${ORDER_COLUMNS} FROM t_order WHERE id = ?`, [
      order.id,
    ]);
    const [row] = rows as Array<{ version: number; user_id: string }>;
    order.version = Number(row.version);
    order.userId = row.user_id;
    await connection.query(
      `INSERT INTO t_pay_notification
         (notify_id, order_id, pay_order_id, amount, currency, status, changed_order, answer,
          created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, UTC_TIMESTAMP(3))`,
      [
        notifyId,
        order.id,
        order.payOrderId,
        order.amount,
        'EUR',
        'SUCCESS',
        1,
        JSON.stringify(answer),
      ],
    );
    await casUpdate(connection, order, notifyId);
    await outboxInsert(connection, order, notifyId);
  });
  order.version += 1;
  return answer;
}

/** An inbox consumer's transaction: the inbox row + a one-row business update. */
export const inboxPlusUpdate: Shape = async (connection, order) => {
  await inTransaction(connection, async () => {
    await connection.query(
      `INSERT INTO t_inbox (consumer, event_key, event_type, event_id, outcome, processed_at)
       VALUES (?, ?, ?, ?, 'applied', ?)`,
      ['bench', `OrderPaid:${order.id}:${randomUUID()}`, 'OrderPaid', randomUUID(), new Date()],
    );
    await connection.query('UPDATE t_bench_account SET balance = balance + 1 WHERE id = ?', [
      order.userId,
    ]);
  });
};

/** The floor: one single-row insert per commit (what a commit costs on this server). */
export const singleInsert: Shape = async (connection, order) => {
  await inTransaction(connection, async () => {
    await connection.query('INSERT INTO t_bench_commit (order_id) VALUES (?)', [order.id]);
  });
};

/** The tables singleInsert and inboxPlusUpdate need beyond the services' migrations. */
export const BENCH_TABLES = [
  'CREATE TABLE IF NOT EXISTS t_bench_commit (id BIGINT AUTO_INCREMENT PRIMARY KEY, order_id VARCHAR(32) NOT NULL)',
  'CREATE TABLE IF NOT EXISTS t_bench_account (id VARCHAR(64) PRIMARY KEY, balance BIGINT NOT NULL)',
];
