import { Logger } from '@nestjs/common';
import { runTransaction } from '@outbox-inbox/database';
import { openMysqlDataSource } from '@outbox-inbox/database/mysql';
import { startTestEnvironment, TestEnvironment } from '@outbox-inbox/test-kit';
import { DataSource, EntityManager } from 'typeorm';
import {
  fulfillmentDone,
  fulfillmentReverted,
  orderCancelled,
  orderPaid,
} from '../../test/ledger-fixtures';
import { AccountingMigrations } from '../migrations';
import { LedgerCurrencies } from './ledger-currencies';
import { LedgerQueries } from './ledger.queries';
import { LedgerRepository } from './ledger.repository';
import { BookingResult, LedgerService } from './ledger.service';
import { ReconciliationService } from './reconciliation.service';

const NO_RETRY = { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 };

let env: TestEnvironment;
let dataSource: DataSource;
let ledger: LedgerService;
let queries: LedgerQueries;
let reconciliation: ReconciliationService;

beforeAll(async () => {
  Logger.overrideLogger(['error']);
  env = await startTestEnvironment();
  const database = await env.createDatabase('ledger');
  dataSource = await openMysqlDataSource({
    url: database.url,
    migrations: AccountingMigrations,
    poolSize: 10,
  });
  await dataSource.runMigrations();
  ledger = new LedgerService(new LedgerRepository(), new LedgerCurrencies());
  queries = new LedgerQueries(dataSource);
  reconciliation = new ReconciliationService(dataSource);
});

afterAll(async () => {
  await dataSource?.destroy();
  await env?.stop();
});

beforeEach(async () => {
  for (const table of ['t_journal_line', 't_journal', 't_paid_order', 't_account']) {
    await dataSource.query(`DELETE FROM ${table}`);
  }
});

/** Raw balances (debits minus credits) by "code currency". */
async function rawBalances(): Promise<Record<string, string>> {
  const rows: Array<{ code: string; currency: string; balance: string }> = await dataSource.query(
    'SELECT code, currency, balance FROM t_account',
  );
  return Object.fromEntries(rows.map((r) => [`${r.code} ${r.currency}`, String(r.balance)]));
}

async function journalCount(): Promise<number> {
  const [row]: Array<{ n: string }> = await dataSource.query('SELECT COUNT(*) AS n FROM t_journal');
  return Number(row.n);
}

describe('LedgerService', () => {
  describe('when the same OrderPaid is booked twice', () => {
    it('books one journal and moves the balances once', async () => {
      const event = orderPaid('100', 2500);
      const first = await runTransaction(dataSource, (m) => ledger.bookOrderPaid(m, event));
      const second = await runTransaction(dataSource, (m) => ledger.bookOrderPaid(m, event));

      expect(first.status).toBe('BOOKED');
      expect(second).toEqual({
        status: 'ALREADY_BOOKED',
        journalId: (first as { journalId: string }).journalId,
      });
      expect(await journalCount()).toBe(1);
      expect(await rawBalances()).toEqual({ '1100 EUR': '2500', '4000 EUR': '-2500' });
    });

    it('books one journal when the duplicates race each other', async () => {
      const event = orderPaid('101', 700);
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          runTransaction(dataSource, (m) => ledger.bookOrderPaid(m, event)),
        ),
      );

      expect(results.filter((r) => r.status === 'BOOKED')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'ALREADY_BOOKED')).toHaveLength(7);
      expect(await journalCount()).toBe(1);
      expect(await rawBalances()).toEqual({ '1100 EUR': '700', '4000 EUR': '-700' });
    });
  });

  it('books nothing when the caller rolls its transaction back', async () => {
    await expect(
      runTransaction(dataSource, async (m) => {
        await ledger.bookOrderPaid(m, orderPaid('102', 900));
        throw new Error('the inbox transaction failed after the booking');
      }),
    ).rejects.toThrow('the inbox transaction failed');

    expect(await journalCount()).toBe(0);
    expect(await rawBalances()).toEqual({});
    expect(await queries.findOrder('102')).toBeUndefined();
  });

  it("books an order's whole life: paid, coupon granted and revoked, cancelled", async () => {
    const book = (work: Parameters<typeof runTransaction<BookingResult>>[1]) =>
      runTransaction(dataSource, work);
    await book((m) => ledger.bookOrderPaid(m, orderPaid('103', 1999)));
    await book((m) => ledger.bookFulfillmentDone(m, fulfillmentDone('103', 300)));
    await book((m) => ledger.bookFulfillmentReverted(m, fulfillmentReverted('103', 300)));
    await book((m) => ledger.bookOrderCancelled(m, orderCancelled('103')));

    expect(await rawBalances()).toEqual({
      '1100 EUR': '1999',
      '2200 EUR': '0',
      '2300 EUR': '-1999',
      '4000 EUR': '0',
      '5100 EUR': '0',
    });
    const order = await queries.findOrder('103');
    expect(order?.paid).toMatchObject({ amount: '1999', currency: 'EUR', payOrderId: 'pay-103' });
    expect(
      order?.journals.map((j) => [
        j.kind,
        j.sourceEventKey,
        j.lines.map((l) => `${l.accountCode} ${l.debit}/${l.credit}`),
      ]),
    ).toEqual([
      ['PAYMENT', 'OrderPaid:103:3', ['1100 1999/0', '4000 0/1999']],
      ['COUPON_GRANT', 'FulfillmentDone:f103:1', ['5100 300/0', '2200 0/300']],
      ['COUPON_REVOKE', 'FulfillmentReverted:f103:2', ['2200 300/0', '5100 0/300']],
      ['REFUND', 'OrderCancelled:103:4', ['4000 1999/0', '2300 0/1999']],
    ]);
    expect((await reconciliation.reconcile()).clean).toBe(true);
  });

  it('books nothing for the cancellation of an order never paid', async () => {
    const result = await runTransaction(dataSource, (m) =>
      ledger.bookOrderCancelled(m, orderCancelled('104', 3)),
    );

    expect(result).toEqual({ status: 'NOTHING_TO_BOOK', reason: 'order was never paid' });
    expect(await journalCount()).toBe(0);
  });

  it('keeps balances per currency', async () => {
    await runTransaction(dataSource, (m) => ledger.bookOrderPaid(m, orderPaid('105', 1000, 'EUR')));
    await runTransaction(dataSource, (m) => ledger.bookOrderPaid(m, orderPaid('106', 4200, 'USD')));

    const accounts = await queries.listAccounts();
    expect(accounts.map((a) => [a.code, a.currency, a.type, a.balance])).toEqual([
      ['1100', 'EUR', 'ASSET', '1000'],
      ['1100', 'USD', 'ASSET', '4200'],
      ['4000', 'EUR', 'REVENUE', '1000'],
      ['4000', 'USD', 'REVENUE', '4200'],
    ]);
  });

  describe('when 50 bookings hit the same accounts at once', () => {
    it('leaves exact balances, one journal each, without a single deadlock', async () => {
      // Four kinds of booking touch the hot accounts with debits and credits in different
      // orders. Balances are updated in account-code order, so no booking waits for another in
      // a cycle: the bookings run with retries switched off, and any deadlock fails the test.
      const orders = Array.from({ length: 50 }, (_, i) => ({ id: `2${i}`, amount: 100 + i }));
      for (const o of orders.slice(0, 10)) {
        await runTransaction(dataSource, (m) => ledger.bookOrderPaid(m, orderPaid(o.id, o.amount)));
        await runTransaction(dataSource, (m) =>
          ledger.bookFulfillmentDone(m, fulfillmentDone(o.id, 10)),
        );
      }
      await runTransaction(dataSource, (m) => ledger.bookOrderPaid(m, orderPaid('299', 1)));
      await runTransaction(dataSource, (m) => ledger.bookOrderCancelled(m, orderCancelled('299')));
      type Work = (m: EntityManager) => Promise<BookingResult>;
      const bookings: Work[] = orders.map((o, i) => {
        if (i < 10) {
          return i % 2 === 0
            ? (m) => ledger.bookOrderCancelled(m, orderCancelled(o.id))
            : (m) => ledger.bookFulfillmentReverted(m, fulfillmentReverted(o.id, 10));
        }
        return i % 2 === 0
          ? (m) => ledger.bookOrderPaid(m, orderPaid(o.id, o.amount))
          : (m) => ledger.bookFulfillmentDone(m, fulfillmentDone(o.id, 7));
      });

      const results = await Promise.all(
        bookings.map((work) => runTransaction(dataSource, work, NO_RETRY)),
      );

      expect(results.every((r) => r.status === 'BOOKED')).toBe(true);
      const paid = [...orders.slice(0, 10), ...orders.slice(10).filter((_, i) => i % 2 === 0)];
      const cancelled = orders.slice(0, 10).filter((_, i) => i % 2 === 0);
      const sum = (list: typeof orders) => list.reduce((s, o) => s + o.amount, 0);
      const couponsOutstanding = 10 * 10 + 20 * 7 - 5 * 10;
      expect(await rawBalances()).toEqual({
        '1100 EUR': String(sum(paid) + 1),
        '2200 EUR': String(-couponsOutstanding),
        '2300 EUR': String(-(sum(cancelled) + 1)),
        '4000 EUR': String(-(sum(paid) - sum(cancelled))),
        '5100 EUR': String(couponsOutstanding),
      });
      expect(await journalCount()).toBe(20 + 2 + 50);
      expect(await reconciliation.reconcile()).toMatchObject({
        clean: true,
        paidOrders: 31,
        paymentJournals: 31,
        journals: 72,
      });
    });

    it('creates the accounts of a new currency once, however many bookings race to', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          runTransaction(dataSource, (m) =>
            ledger.bookOrderPaid(m, orderPaid(`4${i}`, 1000, 'JPY')),
          ),
        ),
      );

      expect(results.every((r) => r.status === 'BOOKED')).toBe(true);
      expect(await rawBalances()).toEqual({ '1100 JPY': '20000', '4000 JPY': '-20000' });
      expect((await reconciliation.reconcile()).clean).toBe(true);
    });
  });

  describe('reconciliation', () => {
    it('reports each planted mismatch', async () => {
      for (const id of ['300', '301', '302', '303']) {
        await runTransaction(dataSource, (m) => ledger.bookOrderPaid(m, orderPaid(id, 1000)));
      }
      expect((await reconciliation.reconcile()).clean).toBe(true);

      // An upstream bug: a second, different OrderPaid event for an order already paid.
      await runTransaction(dataSource, (m) =>
        ledger.bookOrderPaid(m, orderPaid('303', 1000, 'EUR', 5)),
      );
      // A paid order whose payment journal is missing, a payment journal with no paid order,
      // a journal that lost a line, and a balance moved outside any journal.
      await dataSource.query(
        `INSERT INTO t_paid_order VALUES ('399', 'pay-399', 500, 'EUR', NOW(3), 'OrderPaid:399:3', NOW(3))`,
      );
      await dataSource.query(`DELETE FROM t_paid_order WHERE order_id = '300'`);
      const [journal]: Array<{ id: string }> = await dataSource.query(
        `SELECT id FROM t_journal WHERE order_id = '301'`,
      );
      await dataSource.query('DELETE FROM t_journal_line WHERE journal_id = ? AND line_no = 2', [
        journal.id,
      ]);
      await dataSource.query(`UPDATE t_paid_order SET amount = 999 WHERE order_id = '302'`);
      await dataSource.query(
        `UPDATE t_account SET balance = balance + 1 WHERE code = '1100' AND currency = 'EUR'`,
      );
      // A stale OrderCancelled (version 2, before the payment's 3) booked as a refund of an
      // order that stayed paid, and a coupon reversal with no grant to reverse.
      await runTransaction(dataSource, (m) => ledger.bookOrderPaid(m, orderPaid('304', 800)));
      await runTransaction(dataSource, (m) =>
        ledger.bookOrderCancelled(m, orderCancelled('304', 2)),
      );
      await runTransaction(dataSource, (m) =>
        ledger.bookFulfillmentReverted(m, fulfillmentReverted('305', 10)),
      );

      const report = await reconciliation.reconcile();

      expect(report.clean).toBe(false);
      expect(
        report.mismatches.map((m) => `${m.kind} ${m.orderId ?? m.accountCode}`).sort(),
      ).toEqual(
        [
          'PAID_WITHOUT_JOURNAL 399',
          'JOURNAL_WITHOUT_PAID_ORDER 300',
          'UNBALANCED_JOURNAL 301',
          'PAYMENT_AMOUNT_MISMATCH 302',
          'BALANCE_MISMATCH 1100',
          'BALANCE_MISMATCH 4000',
          'DUPLICATE_PAYMENT_JOURNAL 303',
          'REFUND_OF_STALE_CANCEL 304',
          'REVOKE_WITHOUT_GRANT 305',
        ].sort(),
      );
      const clearing = report.mismatches.find((m) => m.accountCode === '1100');
      expect(clearing).toMatchObject({ expected: '5800', actual: '5801' });
    });
  });
});
