import { NonRetryableError } from '@outbox-inbox/inbox';
import { deadLetterJournalErrors } from './dead-letter-journal-errors';
import { JournalError, LedgerCurrencyNotOpenError } from './domain/ledger.errors';

describe('deadLetterJournalErrors', () => {
  it('turns a journal that cannot balance into a non-retryable error that keeps its cause', async () => {
    const cause = new JournalError('JOURNAL_UNBALANCED', 'debits 2 differ from credits 1');
    const failure = deadLetterJournalErrors(() => Promise.reject(cause));

    await expect(failure).rejects.toBeInstanceOf(NonRetryableError);
    await expect(failure).rejects.toMatchObject({ cause });
  });

  it('dead-letters a journal in a currency the ledger is not open in, naming the currency', async () => {
    const failure = deadLetterJournalErrors(() =>
      Promise.reject(new LedgerCurrencyNotOpenError('CHF')),
    );

    await expect(failure).rejects.toBeInstanceOf(NonRetryableError);
    await expect(failure).rejects.toThrow(
      /^LEDGER_CURRENCY_NOT_OPEN: the ledger is not open in CHF/,
    );
  });

  it('leaves other errors retryable and passes results through', async () => {
    const deadlock = Object.assign(new Error('Deadlock found'), { errno: 1213 });

    await expect(deadLetterJournalErrors(() => Promise.reject(deadlock))).rejects.toBe(deadlock);
    await expect(deadLetterJournalErrors(() => Promise.resolve('booked'))).resolves.toBe('booked');
  });
});
