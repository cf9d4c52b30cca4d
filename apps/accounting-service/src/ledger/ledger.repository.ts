import { Injectable } from '@nestjs/common';
import { isDuplicateKeyError } from '@outbox-inbox/database';
import { EntityManager } from 'typeorm';
import { findAccount } from './domain/chart-of-accounts';
import { Journal } from './domain/journal';
import { LedgerStoreError } from './domain/ledger.errors';
import { PaidOrder } from './domain/postings';

/** What inserting a journal header found: a new row, or the journal its source event already booked. */
export type JournalInsert = { inserted: true; id: string } | { inserted: false; id: string };

/** What an OrderPaid event tells reconciliation. */
export interface PaidOrderRecord extends PaidOrder {
  payOrderId: string;
  paidAt: Date;
  sourceEventKey: string;
}

interface WriteResult {
  insertId: number | string;
}

/** Moves an account's balance, creating its row for this currency on first use. */
const BALANCE_UPSERT_SQL = `INSERT INTO t_account (code, currency, name, type, balance, version, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 1, ?, ?)
       ON DUPLICATE KEY UPDATE balance = balance + ?, version = version + 1, updated_at = ?`;

const PAID_ORDER_INSERT_SQL = `INSERT INTO t_paid_order (order_id, pay_order_id, amount, currency, paid_at,
         source_event_key, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON DUPLICATE KEY UPDATE order_id = order_id`;

/**
 * The journal's lines, on the id the header's insert just generated (LAST_INSERT_ID(): the
 * balance upserts between them generate none), and for an OrderPaid booking the paid order
 * remembered for reconciliation (a second record for the same order keeps the first).
 */
function linesInsert(
  journal: Journal,
  now: Date,
  paid?: PaidOrderRecord,
): { sql: string; params: unknown[] } {
  const placeholders = journal.lines.map(() => '(LAST_INSERT_ID(), ?, ?, ?, ?, ?)').join(', ');
  const params: unknown[] = journal.lines.flatMap((line) => [
    line.lineNo,
    line.accountCode,
    journal.currency,
    line.debit,
    line.credit,
  ]);
  const lines = `INSERT INTO t_journal_line (journal_id, line_no, account_code, currency, debit, credit)
       VALUES ${placeholders}`;
  if (!paid) return { sql: lines, params };
  return {
    sql: `${lines};\n${PAID_ORDER_INSERT_SQL}`,
    params: [
      ...params,
      paid.orderId,
      paid.payOrderId,
      paid.amount,
      paid.currency,
      paid.paidAt,
      paid.sourceEventKey,
      now,
    ],
  };
}

/** One query's results: mysql2 gives a single statement's result unwrapped. */
function asResults(raw: unknown): WriteResult[] {
  return Array.isArray(raw) ? (raw as WriteResult[]) : [raw as WriteResult];
}

/**
 * The ledger's writes, all on the caller's transaction (`manager`). Balances move only with
 * `balance = balance + ?`, never read-modify-write, so correctness does not rest on the
 * isolation level.
 */
@Injectable()
export class LedgerRepository {
  /**
   * Books `journal` in one round trip: the header, each account's balance moved by the
   * journal's net change, the lines (on the header's id, LAST_INSERT_ID()), and for an OrderPaid
   * booking the paid order remembered for reconciliation (a second record for the same order
   * keeps the first). The statements travel in one query.
   *
   * The unique source event key turns a second booking of the same event into "already
   * booked" instead of a second journal, even when it slips past the inbox (a replay after the
   * inbox window, a duplicate of another key with the same effect); the server stops at that
   * failed insert, so no balance moved.
   *
   * Balances move in ascending account code, so that every booking locks account rows in the
   * same order and concurrent bookings on the same hot accounts queue instead of deadlocking.
   * Each move is an upsert: an account's first booking in a currency creates its row with the
   * change, and when concurrent bookings race to create it, the others add theirs atomically
   * (an upsert that finds the row locks it exclusively, as an UPDATE does).
   */
  async insertJournal(
    manager: EntityManager,
    journal: Journal,
    now: Date,
    paid?: PaidOrderRecord,
  ): Promise<JournalInsert> {
    const { source } = journal;
    const changes = journal.balanceChanges().map((change) => {
      const account = findAccount(change.accountCode);
      if (!account) throw new LedgerStoreError(`account ${change.accountCode} is not in the chart`);
      return { ...change, account };
    });
    const lines = linesInsert(journal, now, paid);
    const statements = [
      `INSERT INTO t_journal (source_event_key, source_event_id, event_type, kind, order_id,
         currency, total_debit, total_credit, description, occurred_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ...changes.map(() => BALANCE_UPSERT_SQL),
      lines.sql,
    ];
    const params = [
      source.eventKey,
      source.eventId,
      source.eventType,
      journal.kind,
      source.orderId,
      journal.currency,
      journal.total,
      journal.total,
      journal.description,
      source.occurredAt,
      now,
      ...changes.flatMap(({ account, delta }) => [
        account.code,
        journal.currency,
        account.name,
        account.type,
        delta,
        now,
        now,
        // the ON DUPLICATE KEY branch: the row exists
        delta,
        now,
      ]),
      ...lines.params,
    ];
    try {
      const results = asResults(await manager.query(statements.join(';\n'), params));
      return { inserted: true, id: String(results[0].insertId) };
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      // A failed statement does not end a MySQL transaction: the caller's work goes on.
      const rows: Array<{ id: string }> = await manager.query(
        'SELECT id FROM t_journal WHERE source_event_key = ?',
        [source.eventKey],
      );
      if (!rows[0])
        throw new LedgerStoreError(`journal ${source.eventKey} vanished`, { cause: error });
      return { inserted: false, id: String(rows[0].id) };
    }
  }

  /** The paid order `orderId`, when an OrderPaid event for it was booked. */
  async findPaidOrder(manager: EntityManager, orderId: string): Promise<PaidOrder | undefined> {
    const rows: Array<{ order_id: string; amount: string; currency: string }> = await manager.query(
      'SELECT order_id, amount, currency FROM t_paid_order WHERE order_id = ?',
      [orderId],
    );
    const row = rows[0];
    return row
      ? { orderId: row.order_id, amount: Number(row.amount), currency: row.currency }
      : undefined;
  }
}
