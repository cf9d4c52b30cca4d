import { EntityManager } from 'typeorm';
import type { Mismatch } from './reconciliation-report';

/** The version at the end of an event key (eventType:aggregateId:version), as SQL. */
const versionOf = (column: string) => `CAST(SUBSTRING_INDEX(${column}, ':', -1) AS UNSIGNED)`;

/**
 * Refunds and reversals against what the ledger knows of payments: a REFUND is owed only by
 * an OrderCancelled that came after the order's OrderPaid (a later version: a stale cancel
 * that lost to the payment owes nothing), for the amount paid, once per order; a
 * COUPON_REVOKE reverses a COUPON_GRANT of the same order and value.
 */
export async function refundMismatches(manager: EntityManager, limit: number): Promise<Mismatch[]> {
  const rows: Array<{
    id: string;
    order_id: string;
    currency: string;
    total_debit: string;
    source_event_key: string;
    paid_amount: string | null;
    paid_currency: string | null;
    paid_key: string | null;
    refunds: string;
  }> = await manager.query(
    `SELECT j.id, j.order_id, j.currency, j.total_debit, j.source_event_key,
       p.amount AS paid_amount, p.currency AS paid_currency, p.source_event_key AS paid_key,
       (SELECT COUNT(*) FROM t_journal r WHERE r.kind = 'REFUND' AND r.order_id = j.order_id) AS refunds
     FROM t_journal j LEFT JOIN t_paid_order p ON p.order_id = j.order_id
     WHERE j.kind = 'REFUND' AND (p.order_id IS NULL
       OR ${versionOf('j.source_event_key')} <= ${versionOf('p.source_event_key')}
       OR j.total_debit <> p.amount OR j.currency <> p.currency
       OR (SELECT COUNT(*) FROM t_journal r WHERE r.kind = 'REFUND' AND r.order_id = j.order_id) > 1)
     ORDER BY j.id LIMIT ${limit}`,
  );
  return rows.map((row) => {
    const base = {
      orderId: row.order_id,
      journalId: String(row.id),
      currency: row.currency,
      actual: `${row.total_debit} ${row.currency}`,
    };
    if (row.paid_key === null)
      return {
        ...base,
        kind: 'REFUND_WITHOUT_PAYMENT',
        detail: `refund journal ${row.id} refunds order ${row.order_id}, which no OrderPaid event paid`,
      };
    if (Number(row.refunds) > 1)
      return {
        ...base,
        kind: 'DUPLICATE_REFUND',
        expected: '1',
        detail: `order ${row.order_id} has ${row.refunds} refund journals`,
      };
    const stale =
      Number(row.source_event_key.split(':').pop()) <= Number(row.paid_key.split(':').pop());
    return stale
      ? {
          ...base,
          kind: 'REFUND_OF_STALE_CANCEL',
          detail: `refund journal ${row.id} books ${row.source_event_key}, older than ${row.paid_key}: the order stayed paid`,
        }
      : {
          ...base,
          kind: 'REFUND_AMOUNT_MISMATCH',
          expected: `${row.paid_amount} ${row.paid_currency}`,
          detail: `refund journal ${row.id} refunds another amount than order ${row.order_id} was paid`,
        };
  });
}

export async function revokeMismatches(manager: EntityManager, limit: number): Promise<Mismatch[]> {
  const rows: Array<{ id: string; order_id: string; currency: string; total_debit: string }> =
    await manager.query(
      `SELECT j.id, j.order_id, j.currency, j.total_debit FROM t_journal j
       WHERE j.kind = 'COUPON_REVOKE' AND NOT EXISTS (SELECT 1 FROM t_journal g
         WHERE g.kind = 'COUPON_GRANT' AND g.order_id = j.order_id
           AND g.total_debit = j.total_debit AND g.currency = j.currency)
       ORDER BY j.id LIMIT ${limit}`,
    );
  return rows.map((row) => ({
    kind: 'REVOKE_WITHOUT_GRANT',
    orderId: row.order_id,
    journalId: String(row.id),
    currency: row.currency,
    actual: String(row.total_debit),
    detail: `coupon revoke journal ${row.id} reverses no coupon grant of order ${row.order_id}`,
  }));
}
