import { Accounts } from './chart-of-accounts';
import { Journal, JournalDraft } from './journal';
import { JournalError, JournalErrorCode } from './ledger.errors';

const source = {
  eventKey: 'OrderPaid:42:4',
  eventType: 'OrderPaid',
  eventId: '00000000-0000-4000-8000-000000000001',
  orderId: '42',
  occurredAt: new Date('2026-12-01T10:00:00.000Z'),
};

function draft(lines: JournalDraft['lines'], currency = 'EUR'): JournalDraft {
  return { source, kind: 'PAYMENT', currency, description: 'test', lines };
}

function errorCodeOf(build: () => unknown): JournalErrorCode | undefined {
  try {
    build();
  } catch (error) {
    if (error instanceof JournalError) return error.code;
    throw error;
  }
  return undefined;
}

describe('Journal', () => {
  it('builds a balanced journal with numbered lines and its total', () => {
    const journal = Journal.create(
      draft([
        { accountCode: '1100', debit: 1500 },
        { accountCode: '4000', credit: 1000 },
        { accountCode: '2200', credit: 500 },
      ]),
    );
    expect(journal.total).toBe(1500);
    expect(journal.lines).toEqual([
      { lineNo: 1, accountCode: '1100', debit: 1500, credit: 0 },
      { lineNo: 2, accountCode: '4000', debit: 0, credit: 1000 },
      { lineNo: 3, accountCode: '2200', debit: 0, credit: 500 },
    ]);
  });

  it('refuses debits that differ from credits', () => {
    expect(
      errorCodeOf(() =>
        Journal.create(
          draft([
            { accountCode: '1100', debit: 1000 },
            { accountCode: '4000', credit: 999 },
          ]),
        ),
      ),
    ).toBe('JOURNAL_UNBALANCED');
  });

  it('refuses fewer than two lines', () => {
    expect(errorCodeOf(() => Journal.create(draft([{ accountCode: '1100', debit: 1 }])))).toBe(
      'JOURNAL_TOO_FEW_LINES',
    );
  });

  it.each([
    ['a fraction', { debit: 10.5 }],
    ['zero', { debit: 0 }],
    ['a negative amount', { debit: -10 }],
    ['both sides', { debit: 10, credit: 10 }],
    ['no side', {}],
    ['an unsafe integer', { debit: 2 ** 53 }],
  ])('refuses a line with %s', (_what, amounts) => {
    expect(
      errorCodeOf(() =>
        Journal.create(
          draft([
            { accountCode: '1100', ...amounts },
            { accountCode: '4000', credit: 10 },
          ]),
        ),
      ),
    ).toBe('JOURNAL_AMOUNT_INVALID');
  });

  it('refuses an account that is not in the chart', () => {
    expect(
      errorCodeOf(() =>
        Journal.create(
          draft([
            { accountCode: '9999', debit: 10 },
            { accountCode: '4000', credit: 10 },
          ]),
        ),
      ),
    ).toBe('JOURNAL_ACCOUNT_UNKNOWN');
  });

  it('refuses a currency that is not an ISO code', () => {
    const lines = [
      { accountCode: '1100', debit: 10 },
      { accountCode: '4000', credit: 10 },
    ];
    expect(errorCodeOf(() => Journal.create(draft(lines, 'eur')))).toBe('JOURNAL_CURRENCY_INVALID');
  });

  it('nets balance changes per account and lists them in account-code order (the lock order)', () => {
    const journal = Journal.create(
      draft([
        { accountCode: Accounts.SALES_REVENUE.code, credit: 700 },
        { accountCode: Accounts.COUPON_EXPENSE.code, debit: 300 },
        { accountCode: Accounts.PAYMENT_CLEARING.code, debit: 500 },
        { accountCode: Accounts.SALES_REVENUE.code, debit: 100 },
        { accountCode: Accounts.COUPON_LIABILITY.code, credit: 200 },
      ]),
    );
    expect(journal.balanceChanges()).toEqual([
      { accountCode: '1100', delta: 500 },
      { accountCode: '2200', delta: -200 },
      { accountCode: '4000', delta: -600 },
      { accountCode: '5100', delta: 300 },
    ]);
    expect(journal.balanceChanges().reduce((sum, c) => sum + c.delta, 0)).toBe(0);
  });
});
