import { createEnvelope, envelopeHeaders } from '@outbox-inbox/messaging';
import { OrderCreatedV1 } from '@app/trading-events';
import { waitFor, testKafkaConfig } from '@outbox-inbox/test-kit';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { TradingStack } from './trading-stack';

/** A planted violation: the rule that must report it and the id it must name. */
export interface Planted {
  rule: string;
  id: string;
}

type Orders = { paid: string[]; cancelled: string[]; refunded: string[] };

/**
 * Plants one of each kind of violation into a settled deployment, straight into its tables
 * and topics, and returns what the checker must report. `orders.paid` ends with the orders
 * of the last (unpruned) week; its first ones are from the pruned weeks.
 */
export async function plantViolations(
  chain: TradingStack,
  orders: Orders,
): Promise<{ planted: Planted[]; staleRefund: { orderId: string; journalId: string } }> {
  const [a, b, c, d, e, g] = orders.paid.slice(-6);
  const [p, q] = orders.paid;
  const marker = orders.cancelled.at(-1)!;
  const planted: Planted[] = [];
  const plant = (rule: string, id: string) => planted.push({ rule, id });
  const one = async <T>(
    database: Parameters<TradingStack['query']>[0],
    sql: string,
    params: unknown[],
  ) => (await chain.query<T>(database, sql, params))[0];
  const fulfillmentOf = (orderId: string) =>
    one<{ id: string; coupon_code: string }>(
      'fulfillment_service',
      'SELECT id, coupon_code FROM t_fulfillment WHERE order_id = ?',
      [orderId],
    );

  // A second coupon for an order, under another idempotency key (a non-deterministic key).
  const couponA = (await fulfillmentOf(a)).coupon_code;
  await copyCoupon(chain, couponA, 'PLANTED-2ND', 'another-key');
  plant(
    'coupon-has-fulfillment',
    `coupon PLANTED-2ND (order ${a}, key another-key): the fulfillment grants under OrderPaid:${a}:3`,
  );
  plant(
    'one-coupon-per-order',
    `order ${a}: 2 coupons ${[couponA, 'PLANTED-2ND'].sort().join(',')}`,
  );

  // A second coupon under the same key.
  const couponC = (await fulfillmentOf(c)).coupon_code;
  const fulfillmentC = (await fulfillmentOf(c)).id;
  await copyCoupon(chain, couponC, 'PLANTED-SAME', `OrderPaid:${c}:3`);
  plant(
    'one-grant-per-idempotency-key',
    `OrderPaid:${c}:3: ${[couponC, 'PLANTED-SAME'].sort().join(', ')}`,
  );
  plant(
    'one-coupon-per-order',
    `order ${c}: 2 coupons ${[couponC, 'PLANTED-SAME'].sort().join(',')}`,
  );
  plant(
    'done-fulfillment-has-one-coupon',
    `order ${c} (fulfillment ${fulfillmentC} DONE): 2 coupons under OrderPaid:${c}:3`,
  );
  plant(
    'coupon-has-fulfillment',
    `coupon PLANTED-SAME (order ${c}, key OrderPaid:${c}:3): the fulfillment holds ${couponC}`,
  );

  // A refund booked for an order that stayed paid (a stale OrderCancelled applied).
  const { amount } = await one<{ amount: number }>(
    'order_service',
    'SELECT amount FROM t_order WHERE id = ?',
    [b],
  );
  const refund = await book(chain, b, 'REFUND', `OrderCancelled:${b}:2`, Number(amount), [
    '4000',
    '2300',
  ]);
  plant(
    'refund-matches-cancelled-payment',
    `journal ${refund} (REFUND, order ${b}, from OrderCancelled:${b}:2): no event owes it`,
  );

  // A payment journal that books another amount than the order's (its lines no longer match).
  const payment = await one<{ id: string; total_debit: number }>(
    'accounting_service',
    "SELECT id, total_debit FROM t_journal WHERE kind = 'PAYMENT' AND order_id = ?",
    [d],
  );
  await chain.query(
    'accounting_service',
    'UPDATE t_journal SET total_debit = total_debit + 100, total_credit = total_credit + 100 WHERE id = ?',
    [payment.id],
  );
  plant(
    'payment-journal-matches-order',
    `journal ${payment.id} (PAYMENT, order ${d}): ${Number(payment.total_debit) + 100} EUR, owed ${payment.total_debit} EUR`,
  );
  plant('journal-is-balanced', `journal ${payment.id} (PAYMENT, order ${d})`);

  // A paid order's payment journal gone (with its lines and balances), in a pruned week.
  const lost = await one<{ id: string }>(
    'accounting_service',
    "SELECT id FROM t_journal WHERE kind = 'PAYMENT' AND order_id = ?",
    [p],
  );
  await unbook(chain, lost.id);
  plant('paid-order-has-one-payment-journal', `OrderPaid:${p}:3: 0 PAYMENT journals`);

  // A coupon revoked while its fulfillment stays DONE.
  const fulfillmentE = await fulfillmentOf(e);
  await chain.query(
    'coupon_provider',
    "UPDATE t_coupon SET status = 'REVOKED' WHERE coupon_code = ?",
    [fulfillmentE.coupon_code],
  );
  plant(
    'done-fulfillment-has-one-coupon',
    `order ${e} (fulfillment ${fulfillmentE.id} DONE): coupon ${fulfillmentE.coupon_code} REVOKED`,
  );

  // A paid order's fulfillment gone: its coupon, outbox row and grant journal are orphans.
  const fulfillmentG = await fulfillmentOf(g);
  await chain.query('fulfillment_service', 'DELETE FROM t_fulfillment WHERE id = ?', [
    fulfillmentG.id,
  ]);
  const doneRow = await one<{ id: string }>(
    'fulfillment_service',
    'SELECT id FROM t_outbox WHERE event_key = ?',
    [`FulfillmentDone:${fulfillmentG.id}:1`],
  );
  const grant = await one<{ id: string }>(
    'accounting_service',
    "SELECT id FROM t_journal WHERE kind = 'COUPON_GRANT' AND order_id = ?",
    [g],
  );
  plant(
    'paid-order-has-one-fulfillment',
    `OrderPaid:${g}:3: passed the gate, 0 fulfillments under its key`,
  );
  plant(
    'coupon-has-fulfillment',
    `coupon ${fulfillmentG.coupon_code} (order ${g}, key OrderPaid:${g}:3): no fulfillment`,
  );
  plant(
    'outbox-row-matches-history',
    `fulfillment-service outbox ${doneRow.id} FulfillmentDone:${fulfillmentG.id}:1: no Fulfillment ${fulfillmentG.id}`,
  );
  plant(
    'coupon-grant-has-one-journal',
    `journal ${grant.id} (COUPON_GRANT, order ${g}, from FulfillmentDone:${fulfillmentG.id}:1): no event owes it`,
  );

  // The CANCELLED marker of an order cancelled unpaid turned into a grant.
  const markerRow = await fulfillmentOf(marker);
  await chain.query(
    'fulfillment_service',
    "UPDATE t_fulfillment SET status = 'DONE', grant_key = ?, coupon_code = 'NONE' WHERE id = ?",
    [`OrderPaid:${marker}:3`, markerRow.id],
  );
  plant(
    'fulfillment-has-paid-order',
    `fulfillment ${markerRow.id} of order ${marker} (DONE): granted for OrderPaid:${marker}:3, order CANCELLED, never paid`,
  );
  plant(
    'done-fulfillment-has-one-coupon',
    `order ${marker} (fulfillment ${markerRow.id} DONE): 0 coupons under OrderPaid:${marker}:3`,
  );

  // A paid order whose OrderPaid is gone from its history (in a pruned week).
  await chain.query(
    'order_service',
    "DELETE FROM t_order_transition WHERE order_id = ? AND event_type = 'OrderPaid'",
    [q],
  );
  plant('paid-order-has-one-order-paid-event', `order ${q}: 0 OrderPaid events`);
  const paymentQ = await one<{ id: string }>(
    'accounting_service',
    "SELECT id FROM t_journal WHERE kind = 'PAYMENT' AND order_id = ?",
    [q],
  );
  plant(
    'payment-journal-matches-order',
    `journal ${paymentQ.id} (PAYMENT, order ${q}, from OrderPaid:${q}:3): no event owes it`,
  );
  for (const consumer of ['fulfillment-service', 'accounting-service'])
    plant(
      'versions-applied-in-order',
      `${consumer} Order:${q}: gate at version 3, the aggregate has 2`,
    );
  plant('topic-message-has-outbox-row', `OrderPaid:${q}:3: no outbox row, no such event recorded`);

  // The ledger's inbox forgets an event it committed past (in the unpruned week).
  await chain.query(
    'accounting_service',
    "DELETE FROM t_inbox WHERE consumer = 'accounting-service' AND event_key = ?",
    [`OrderPaymentStarted:${c}:2`],
  );
  plant(
    'every-event-accounted-for',
    `accounting-service OrderPaymentStarted:${c}:2: passed the gate, no inbox row`,
  );
  plant(
    'versions-applied-in-order',
    `accounting-service Order:${c}: version 2 missing (last applied 3)`,
  );

  // A version parked below the gate, which counts none.
  await chain.query(
    'fulfillment_service',
    `INSERT INTO t_inbox_parked (consumer, aggregate_type, aggregate_id, aggregate_version, event_key,
       event_type, envelope, already_handled, source_topic, source_partition, source_offset, parked_at)
     VALUES ('fulfillment-service', 'Order', ?, 2, ?, 'OrderPaymentStarted', '{}', 0, 'x', 0, 0, NOW(3))`,
    [a, `OrderPaymentStarted:${a}:2`],
  );
  plant(
    'versions-applied-in-order',
    `fulfillment-service Order:${a}: parked versions 2 should have been applied`,
  );
  plant(
    'versions-applied-in-order',
    `fulfillment-service Order:${a}: gate counts 0 parked, the lot holds 1`,
  );

  // A row marked SENT whose event no topic holds, for an order that does not exist.
  const sent = await chain.query<{ insertId: number }>(
    'order_service',
    `INSERT INTO t_outbox (aggregate_type, aggregate_id, aggregate_version, event_type, event_key,
       event_id, payload, headers, status, next_retry_at, created_at, updated_at, sent_at)
     VALUES ('Order', '999999', 1, 'OrderCreated', 'OrderCreated:999999:1', UUID(), '{}', '{}',
       'SENT', NOW(3), NOW(3), NOW(3), NOW(3))`,
  );
  const sentId = (sent as unknown as { insertId: number }).insertId;
  plant('sent-event-is-in-topic', `order-service outbox ${sentId} OrderCreated:999999:1`);
  plant(
    'outbox-row-matches-history',
    `order-service outbox ${sentId} OrderCreated:999999:1: no Order 999999`,
  );

  // A message in the topic that no outbox wrote (both consumers take it in, as they would).
  const phantom = await publishPhantom(chain);
  plant('topic-message-has-outbox-row', `${phantom}: no outbox row, no such event recorded`);

  // A balance moved outside any journal.
  const [{ sum_of_lines: lines }] = await chain.query<{ sum_of_lines: string }>(
    'accounting_service',
    "SELECT SUM(debit - credit) AS sum_of_lines FROM t_journal_line WHERE account_code = '1100' AND currency = 'EUR'",
  );
  await chain.query(
    'accounting_service',
    "UPDATE t_account SET balance = balance + 1 WHERE code = '1100' AND currency = 'EUR'",
  );
  plant(
    'balance-equals-journal-lines',
    `1100 EUR: balance ${Number(lines) + 1}, lines ${Number(lines)}`,
  );
  return { planted, staleRefund: { orderId: b, journalId: refund } };
}

async function copyCoupon(
  chain: TradingStack,
  from: string,
  code: string,
  key: string,
): Promise<void> {
  await chain.query(
    'coupon_provider',
    `INSERT INTO t_coupon (coupon_code, idempotency_key, user_id, order_id, value, currency, status, granted_at)
     SELECT ?, ?, user_id, order_id, value, currency, status, granted_at FROM t_coupon WHERE coupon_code = ?`,
    [code, key, from],
  );
}

/** Books a balanced journal (debit the first account, credit the second) with its balances. */
async function book(
  chain: TradingStack,
  orderId: string,
  kind: string,
  sourceEventKey: string,
  amount: number,
  [debit, credit]: [string, string],
): Promise<string> {
  const inserted = (await chain.query(
    'accounting_service',
    `INSERT INTO t_journal (source_event_key, source_event_id, event_type, kind, order_id, currency,
       total_debit, total_credit, description, occurred_at, created_at)
     VALUES (?, UUID(), ?, ?, ?, 'EUR', ?, ?, 'planted', NOW(3), NOW(3))`,
    [sourceEventKey, sourceEventKey.split(':')[0], kind, orderId, amount, amount],
  )) as unknown as { insertId: number };
  const id = String(inserted.insertId);
  await chain.query(
    'accounting_service',
    `INSERT INTO t_journal_line (journal_id, line_no, account_code, currency, debit, credit)
     VALUES (?, 1, ?, 'EUR', ?, 0), (?, 2, ?, 'EUR', 0, ?)`,
    [id, debit, amount, id, credit, amount],
  );
  await chain.query(
    'accounting_service',
    "UPDATE t_account SET balance = balance + ? WHERE code = ? AND currency = 'EUR'",
    [amount, debit],
  );
  await chain.query(
    'accounting_service',
    "UPDATE t_account SET balance = balance - ? WHERE code = ? AND currency = 'EUR'",
    [amount, credit],
  );
  return id;
}

/** Removes a journal with its lines and what they moved on the balances. */
async function unbook(chain: TradingStack, journalId: string): Promise<void> {
  await chain.query(
    'accounting_service',
    `UPDATE t_account a JOIN t_journal_line l ON l.account_code = a.code AND l.currency = a.currency
     SET a.balance = a.balance - (l.debit - l.credit) WHERE l.journal_id = ?`,
    [journalId],
  );
  await chain.query('accounting_service', 'DELETE FROM t_journal_line WHERE journal_id = ?', [
    journalId,
  ]);
  await chain.query('accounting_service', 'DELETE FROM t_journal WHERE id = ?', [journalId]);
}

/** Publishes an OrderCreated no order wrote; returns `topic:partition:offset eventKey`. */
async function publishPhantom(chain: TradingStack): Promise<string> {
  const envelope = createEnvelope(OrderCreatedV1, {
    aggregateId: '888888',
    aggregateVersion: 1,
    payload: {
      orderId: '888888',
      userId: 'ghost',
      amount: 100,
      currency: 'EUR',
      createdAt: new Date().toISOString(),
    },
  });
  const kafka = new Kafka(
    testKafkaConfig({ brokers: chain.stack.kafkaBrokers, logLevel: logLevel.NOTHING }),
  );
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  const topic = `${chain.stack.topicPrefix}order.events`;
  try {
    const [sent] = await producer.send({
      topic,
      acks: -1,
      messages: [
        {
          key: envelope.aggregateId,
          value: JSON.stringify(envelope),
          headers: envelopeHeaders(envelope),
        },
      ],
    });
    await waitFor(
      async () =>
        (await chain.count(
          'accounting_service',
          'SELECT COUNT(*) AS n FROM t_inbox WHERE event_key = ?',
          [envelope.eventKey],
        )) === 1 &&
        (await chain.count(
          'fulfillment_service',
          'SELECT COUNT(*) AS n FROM t_inbox WHERE event_key = ?',
          [envelope.eventKey],
        )) === 1,
      { description: 'both consumers took the phantom event in' },
    );
    return `${topic}:${sent.partition}:${sent.baseOffset} ${envelope.eventKey}`;
  } finally {
    await producer.disconnect();
  }
}
