import { Logger } from '@nestjs/common';
import { runTransaction } from '@outbox-inbox/database';
import { openMysqlDataSource } from '@outbox-inbox/database/mysql';
import { startTestEnvironment, TestEnvironment } from '@outbox-inbox/test-kit';
import { DataSource } from 'typeorm';
import { orderPaid } from '../../test/ledger-fixtures';
import { AccountingMigrations } from '../migrations';
import { LedgerCurrencyNotOpenError } from './domain/ledger.errors';
import { LedgerCurrencies } from './ledger-currencies';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';

let env: TestEnvironment;

beforeAll(async () => {
  Logger.overrideLogger(['error']);
  env = await startTestEnvironment();
});

afterAll(async () => {
  await env?.stop();
});

/** A fresh database with `migrations` run, and its URL. */
async function migrated(
  name: string,
  migrations = AccountingMigrations,
): Promise<{ dataSource: DataSource; url: string }> {
  const { url } = await env.createDatabase(name);
  const dataSource = await openMysqlDataSource({ url, migrations });
  await dataSource.runMigrations();
  return { dataSource, url };
}

async function count(dataSource: DataSource, sql: string): Promise<number> {
  const [row]: Array<{ n: string }> = await dataSource.query(sql);
  return Number(row.n);
}

describe('the currencies the ledger is open in', () => {
  it('refuses a journal in a currency not opened, books nothing, and books it once opened', async () => {
    const { dataSource } = await migrated('ledger_currency');
    const ledger = new LedgerService(new LedgerRepository(), new LedgerCurrencies());
    try {
      const book = () =>
        runTransaction(dataSource, (m) => ledger.bookOrderPaid(m, orderPaid('7', 990, 'CHF')));

      await expect(book()).rejects.toBeInstanceOf(LedgerCurrencyNotOpenError);
      expect(await count(dataSource, 'SELECT COUNT(*) AS n FROM t_journal')).toBe(0);
      expect(
        await count(dataSource, "SELECT COUNT(*) AS n FROM t_account WHERE currency = 'CHF'"),
      ).toBe(0);

      // Finance opens CHF while the service runs: the next booking sees it.
      await dataSource.query(
        "INSERT INTO t_ledger_currency (currency, opened_at) VALUES ('CHF', NOW(3))",
      );
      await expect(book()).resolves.toMatchObject({ status: 'BOOKED' });
      const balances: Array<{ code: string; balance: string }> = await dataSource.query(
        "SELECT code, balance FROM t_account WHERE currency = 'CHF' ORDER BY code",
      );
      expect(balances.map((b) => [b.code, String(b.balance)])).toEqual([
        ['1100', '990'],
        ['4000', '-990'],
      ]);
    } finally {
      await dataSource.destroy();
    }
  });

  it('opens, when the table comes, every currency booked before it and the shop’s own', async () => {
    const old = await migrated('ledger_currency_upgrade', AccountingMigrations.slice(0, -1));
    // An account the ledger opened in SEK before the rule came.
    await old.dataSource.query(
      `INSERT INTO t_account (code, currency, name, type, balance, version, created_at, updated_at)
       VALUES ('5100', 'SEK', 'Coupon expense', 'EXPENSE', 50, 1, NOW(3), NOW(3))`,
    );
    await old.dataSource.destroy();

    const upgraded = await openMysqlDataSource({ url: old.url, migrations: AccountingMigrations });
    try {
      await upgraded.runMigrations();
      const open: Array<{ currency: string }> = await upgraded.query(
        'SELECT currency FROM t_ledger_currency ORDER BY currency',
      );
      expect(open.map((r) => r.currency)).toEqual(['CNY', 'EUR', 'GBP', 'JPY', 'SEK', 'USD']);
    } finally {
      await upgraded.destroy();
    }
  });
});
