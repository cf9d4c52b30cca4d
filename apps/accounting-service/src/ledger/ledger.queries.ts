import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccountType, findAccount, isDebitNormal } from './domain/chart-of-accounts';

/** An account's balance in one currency, on its normal side (positive is the usual sign). */
export interface AccountBalanceView {
  code: string;
  name: string;
  type: AccountType;
  currency: string;
  /** Minor units as a decimal string: debits minus credits for assets and expenses, credits minus debits otherwise. */
  balance: string;
  version: string;
  updatedAt: string;
}

/** One line of a journal. */
export interface JournalLineView {
  lineNo: number;
  accountCode: string;
  accountName: string;
  debit: string;
  credit: string;
}

/** A journal with its lines. */
export interface JournalView {
  id: string;
  sourceEventKey: string;
  eventType: string;
  kind: string;
  orderId: string;
  currency: string;
  total: string;
  description: string;
  occurredAt: string;
  createdAt: string;
  lines: JournalLineView[];
}

/** What the ledger holds about one order. */
export interface OrderLedgerView {
  orderId: string;
  paid: { amount: string; currency: string; payOrderId: string; paidAt: string } | null;
  journals: JournalView[];
}

/** Read side of the ledger: balances and journals, straight from the tables. */
@Injectable()
export class LedgerQueries {
  constructor(private readonly dataSource: DataSource) {}

  async listAccounts(): Promise<AccountBalanceView[]> {
    const rows: Array<{
      code: string;
      currency: string;
      name: string;
      type: AccountType;
      balance: string;
      version: string;
      updated_at: Date;
    }> = await this.dataSource.query(
      `SELECT code, currency, name, type, balance, version, updated_at
       FROM t_account ORDER BY code, currency`,
    );
    return rows.map((row) => ({
      code: row.code,
      name: row.name,
      type: row.type,
      currency: row.currency,
      balance: (isDebitNormal(row.type) ? BigInt(row.balance) : -BigInt(row.balance)).toString(),
      version: String(row.version),
      updatedAt: row.updated_at.toISOString(),
    }));
  }

  /** The order's journals and lines, oldest first; undefined when the ledger never saw it. */
  async findOrder(orderId: string): Promise<OrderLedgerView | undefined> {
    const [paidRows, journalRows, lineRows] = await Promise.all([
      this.dataSource.query(
        'SELECT amount, currency, pay_order_id, paid_at FROM t_paid_order WHERE order_id = ?',
        [orderId],
      ) as Promise<
        Array<{ amount: string; currency: string; pay_order_id: string; paid_at: Date }>
      >,
      this.dataSource.query(
        `SELECT id, source_event_key, event_type, kind, order_id, currency, total_debit,
           description, occurred_at, created_at
         FROM t_journal WHERE order_id = ? ORDER BY id`,
        [orderId],
      ) as Promise<JournalRow[]>,
      this.dataSource.query(
        `SELECT l.journal_id, l.line_no, l.account_code, l.debit, l.credit
         FROM t_journal_line l JOIN t_journal j ON j.id = l.journal_id
         WHERE j.order_id = ? ORDER BY l.journal_id, l.line_no`,
        [orderId],
      ) as Promise<LineRow[]>,
    ]);
    const paid = paidRows[0];
    if (!paid && journalRows.length === 0) return undefined;
    return {
      orderId,
      paid: paid
        ? {
            amount: String(paid.amount),
            currency: paid.currency,
            payOrderId: paid.pay_order_id,
            paidAt: paid.paid_at.toISOString(),
          }
        : null,
      journals: journalRows.map((journal) => toJournalView(journal, lineRows)),
    };
  }
}

interface JournalRow {
  id: string;
  source_event_key: string;
  event_type: string;
  kind: string;
  order_id: string;
  currency: string;
  total_debit: string;
  description: string;
  occurred_at: Date;
  created_at: Date;
}

interface LineRow {
  journal_id: string;
  line_no: number;
  account_code: string;
  debit: string;
  credit: string;
}

function toJournalView(row: JournalRow, lines: LineRow[]): JournalView {
  return {
    id: String(row.id),
    sourceEventKey: row.source_event_key,
    eventType: row.event_type,
    kind: row.kind,
    orderId: row.order_id,
    currency: row.currency,
    total: String(row.total_debit),
    description: row.description,
    occurredAt: row.occurred_at.toISOString(),
    createdAt: row.created_at.toISOString(),
    lines: lines
      .filter((line) => String(line.journal_id) === String(row.id))
      .map((line) => ({
        lineNo: Number(line.line_no),
        accountCode: line.account_code,
        accountName: findAccount(line.account_code)?.name ?? line.account_code,
        debit: String(line.debit),
        credit: String(line.credit),
      })),
  };
}
