import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Mismatch, ReconciliationReport } from './reconciliation-report';
import { refundMismatches, revokeMismatches } from './refund-reconciliation';

const LIMIT_PER_CHECK = 500;

/**
 * Compares the paid orders seen in OrderPaid events with the payment journals and the refunds
 * (a refund is owed by a cancel later than the payment, for its amount, once) and coupon
 * reversals with the grants they reverse, checks that
 * every journal's lines balance and match its header, and that every balance equals the sum
 * of its lines. All checks read one consistent snapshot (a read-only REPEATABLE READ
 * transaction: here the snapshot is what we want, no write depends on it), so bookings
 * committing meanwhile cannot show up as false mismatches.
 */
@Injectable()
export class ReconciliationService {
  constructor(private readonly dataSource: DataSource) {}

  async reconcile(): Promise<ReconciliationReport> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const checks = await sequentially(manager, [
        paidWithoutJournal,
        journalWithoutPaidOrder,
        paymentAmountMismatch,
        duplicatePaymentJournal,
        unbalancedJournal,
        balanceMismatch,
        (m) => refundMismatches(m, LIMIT_PER_CHECK + 1),
        (m) => revokeMismatches(m, LIMIT_PER_CHECK + 1),
      ]);
      const [counts]: Array<{ paid: string; payments: string; journals: string }> =
        await manager.query(
          `SELECT (SELECT COUNT(*) FROM t_paid_order) AS paid,
             (SELECT COUNT(*) FROM t_journal WHERE kind = 'PAYMENT') AS payments,
             (SELECT COUNT(*) FROM t_journal) AS journals`,
        );
      const mismatches = checks.flatMap((check) => check.slice(0, LIMIT_PER_CHECK));
      return {
        clean: mismatches.length === 0,
        checkedAt: new Date().toISOString(),
        paidOrders: Number(counts.paid),
        paymentJournals: Number(counts.payments),
        journals: Number(counts.journals),
        mismatches,
        truncated: checks.some((check) => check.length > LIMIT_PER_CHECK),
      };
    });
  }
}

type Check = (manager: EntityManager) => Promise<Mismatch[]>;

// One connection runs one statement at a time; run the checks in turn on the snapshot.
async function sequentially(manager: EntityManager, checks: Check[]): Promise<Mismatch[][]> {
  const results: Mismatch[][] = [];
  for (const check of checks) results.push(await check(manager));
  return results;
}

const LIMIT = `LIMIT ${LIMIT_PER_CHECK + 1}`;

async function paidWithoutJournal(manager: EntityManager): Promise<Mismatch[]> {
  const rows: Array<{ order_id: string; amount: string; currency: string }> = await manager.query(
    `SELECT p.order_id, p.amount, p.currency FROM t_paid_order p
     WHERE NOT EXISTS (SELECT 1 FROM t_journal j WHERE j.kind = 'PAYMENT' AND j.order_id = p.order_id)
     ORDER BY p.order_id ${LIMIT}`,
  );
  return rows.map((row) => ({
    kind: 'PAID_WITHOUT_JOURNAL',
    orderId: row.order_id,
    currency: row.currency,
    expected: String(row.amount),
    detail: `order ${row.order_id} was paid but no payment journal was booked`,
  }));
}

async function journalWithoutPaidOrder(manager: EntityManager): Promise<Mismatch[]> {
  const rows: Array<{ id: string; order_id: string; total_debit: string; currency: string }> =
    await manager.query(
      `SELECT j.id, j.order_id, j.total_debit, j.currency FROM t_journal j
       WHERE j.kind = 'PAYMENT'
         AND NOT EXISTS (SELECT 1 FROM t_paid_order p WHERE p.order_id = j.order_id)
       ORDER BY j.id ${LIMIT}`,
    );
  return rows.map((row) => ({
    kind: 'JOURNAL_WITHOUT_PAID_ORDER',
    orderId: row.order_id,
    journalId: String(row.id),
    currency: row.currency,
    actual: String(row.total_debit),
    detail: `payment journal ${row.id} books order ${row.order_id}, which no OrderPaid event paid`,
  }));
}

async function paymentAmountMismatch(manager: EntityManager): Promise<Mismatch[]> {
  const rows: Array<{
    id: string;
    order_id: string;
    amount: string;
    paid_currency: string;
    total_debit: string;
    currency: string;
  }> = await manager.query(
    `SELECT j.id, j.order_id, p.amount, p.currency AS paid_currency, j.total_debit, j.currency
     FROM t_journal j JOIN t_paid_order p ON p.order_id = j.order_id
     WHERE j.kind = 'PAYMENT' AND (j.total_debit <> p.amount OR j.currency <> p.currency)
     ORDER BY j.id ${LIMIT}`,
  );
  return rows.map((row) => ({
    kind: 'PAYMENT_AMOUNT_MISMATCH',
    orderId: row.order_id,
    journalId: String(row.id),
    currency: row.currency,
    expected: `${row.amount} ${row.paid_currency}`,
    actual: `${row.total_debit} ${row.currency}`,
    detail: `payment journal ${row.id} books another amount than order ${row.order_id} was paid`,
  }));
}

async function duplicatePaymentJournal(manager: EntityManager): Promise<Mismatch[]> {
  const rows: Array<{ order_id: string; journals: string }> = await manager.query(
    `SELECT order_id, COUNT(*) AS journals FROM t_journal WHERE kind = 'PAYMENT'
     GROUP BY order_id HAVING COUNT(*) > 1 ORDER BY order_id ${LIMIT}`,
  );
  return rows.map((row) => ({
    kind: 'DUPLICATE_PAYMENT_JOURNAL',
    orderId: row.order_id,
    expected: '1',
    actual: String(row.journals),
    detail: `order ${row.order_id} has ${row.journals} payment journals`,
  }));
}

async function unbalancedJournal(manager: EntityManager): Promise<Mismatch[]> {
  const rows: Array<{
    id: string;
    order_id: string;
    currency: string;
    total_debit: string;
    debits: string;
    credits: string;
    line_count: string;
    foreign_lines: string;
  }> = await manager.query(
    `SELECT j.id, j.order_id, j.currency, j.total_debit,
       COALESCE(SUM(l.debit), 0) AS debits, COALESCE(SUM(l.credit), 0) AS credits,
       COUNT(l.id) AS line_count, COALESCE(SUM(l.currency <> j.currency), 0) AS foreign_lines
     FROM t_journal j LEFT JOIN t_journal_line l ON l.journal_id = j.id
     GROUP BY j.id, j.order_id, j.currency, j.total_debit, j.total_credit
     HAVING debits <> credits OR debits <> j.total_debit OR credits <> j.total_credit
       OR line_count < 2 OR foreign_lines > 0
     ORDER BY j.id ${LIMIT}`,
  );
  return rows.map((row) => ({
    kind: 'UNBALANCED_JOURNAL',
    orderId: row.order_id,
    journalId: String(row.id),
    currency: row.currency,
    expected: `${row.total_debit} debit = ${row.total_debit} credit`,
    actual: `${row.debits} debit, ${row.credits} credit in ${row.line_count} lines`,
    detail:
      Number(row.foreign_lines) > 0
        ? `journal ${row.id} has lines in another currency than ${row.currency}`
        : `journal ${row.id}'s lines do not balance or do not match its totals`,
  }));
}

async function balanceMismatch(manager: EntityManager): Promise<Mismatch[]> {
  const rows: Array<{ code: string; currency: string; balance: string; from_lines: string }> =
    await manager.query(
      `SELECT a.code, a.currency, a.balance, COALESCE(SUM(l.debit - l.credit), 0) AS from_lines
       FROM t_account a
       LEFT JOIN t_journal_line l ON l.account_code = a.code AND l.currency = a.currency
       GROUP BY a.code, a.currency, a.balance
       HAVING a.balance <> from_lines
       ORDER BY a.code, a.currency ${LIMIT}`,
    );
  return rows.map((row) => ({
    kind: 'BALANCE_MISMATCH',
    accountCode: row.code,
    currency: row.currency,
    expected: String(row.from_lines),
    actual: String(row.balance),
    detail: `account ${row.code} ${row.currency} holds ${row.balance}, its lines sum to ${row.from_lines}`,
  }));
}
