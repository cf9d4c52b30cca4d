import { Injectable } from '@nestjs/common';
import { affectedRows, isDuplicateKeyError } from '@outbox-inbox/database';
import { EntityManager } from 'typeorm';
import { findAccount } from './domain/chart-of-accounts';
import { BalanceChange, Journal } from './domain/journal';
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

const BALANCE_UPDATE_SQL = `UPDATE t_account SET balance = balance + ?, version = version + 1, updated_at = ?
       WHERE code = ? AND currency = ?`;

const PAID_ORDER_INSERT_SQL = `INSERT INTO t_paid_order (order_id, pay_order_id, amount, currency, paid_at,
         source_event_key, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON DUPLICATE KEY UPDATE order_id = order_id`;

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
   * Inserts the journal header and moves each account's balance by the journal's net change,
   * in one round trip (the statements travel in one query). The unique source event key turns
   * a second booking of the same event into "already booked" instead of a second journal, even
   * when it slips past the inbox (a replay after the inbox window, a duplicate of another key
   * with the same effect); the server stops at that failed insert, so no balance moved.
   *
   * Balances move in ascending account code, so that every booking locks account rows in the
   * same order and concurrent bookings on the same hot accounts queue instead of deadlocking.
   * An account row missing for this currency is created on first use (an upsert that adds the
   * change atomically when a concurrent booking created it first).
   */
  async insertJournal(manager: EntityManager, journal: Journal, now: Date): Promise<JournalInsert> {
    const { source } = journal;
    const changes = journal.balanceChanges();
    const statements = [
      `INSERT INTO t_journal (source_event_key, source_event_id, event_type, kind, order_id,
         currency, total_debit, total_credit, description, occurred_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ...changes.map(() => BALANCE_UPDATE_SQL),
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
      ...changes.flatMap((change) => [change.delta, now, change.accountCode, journal.currency]),
    ];
    let results: WriteResult[];
    try {
      results = asResults(await manager.query(statements.join(';\n'), params));
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
    for (const [i, change] of changes.entries()) {
      if (affectedRows(results[i + 1]) !== 1)
        await this.createAccount(manager, change, journal, now);
    }
    return { inserted: true, id: String(results[0].insertId) };
  }

  /** The first booking on an account in a currency: creates its row with the change. */
  private async createAccount(
    manager: EntityManager,
    change: BalanceChange,
    journal: Journal,
    now: Date,
  ): Promise<void> {
    const account = findAccount(change.accountCode);
    if (!account) throw new LedgerStoreError(`account ${change.accountCode} is not in the chart`);
    await manager.query(
      `INSERT INTO t_account (code, currency, name, type, balance, version, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 1, ?, ?)
       ON DUPLICATE KEY UPDATE balance = balance + ?, version = version + 1, updated_at = ?`,
      [account.code, journal.currency, account.name, account.type, change.delta, now, now]
        // the ON DUPLICATE KEY branch: a concurrent booking created the row first
        .concat([change.delta, now]),
    );
  }

  /**
   * Writes the journal's lines (after `insertJournal`: the account rows exist then) and, for an
   * OrderPaid booking, remembers the paid order for reconciliation (a second record for the
   * same order keeps the first), in one round trip.
   */
  async insertLines(
    manager: EntityManager,
    journalId: string,
    journal: Journal,
    now: Date,
    paid?: PaidOrderRecord,
  ): Promise<void> {
    const placeholders = journal.lines.map(() => '(?, ?, ?, ?, ?, ?)').join(', ');
    const values = journal.lines.flatMap((line) => [
      journalId,
      line.lineNo,
      line.accountCode,
      journal.currency,
      line.debit,
      line.credit,
    ]);
    const lines = `INSERT INTO t_journal_line (journal_id, line_no, account_code, currency, debit, credit)
       VALUES ${placeholders}`;
    if (!paid) {
      await manager.query(lines, values);
      return;
    }
    await manager.query(`${lines};\n${PAID_ORDER_INSERT_SQL}`, [
      ...values,
      paid.orderId,
      paid.payOrderId,
      paid.amount,
      paid.currency,
      paid.paidAt,
      paid.sourceEventKey,
      now,
    ]);
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
