/** Why a journal could not be built: every case is a programming or data error, never retried. */
export type JournalErrorCode =
  | 'JOURNAL_TOO_FEW_LINES'
  | 'JOURNAL_AMOUNT_INVALID'
  | 'JOURNAL_CURRENCY_INVALID'
  | 'JOURNAL_UNBALANCED'
  | 'JOURNAL_ACCOUNT_UNKNOWN'
  | 'JOURNAL_SOURCE_INVALID';

/** Raised when a journal would break a double-entry rule; nothing is written. */
export class JournalError extends Error {
  constructor(
    readonly code: JournalErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'JournalError';
  }
}

/** Raised when the database refuses a booking the domain accepted (e.g. an account row vanished). */
export class LedgerStoreError extends Error {
  readonly code = 'LEDGER_STORE_INCONSISTENT' as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LedgerStoreError';
  }
}

/**
 * Raised when a journal is in a currency finance has not opened the ledger in
 * (t_ledger_currency): booking it would open accounts in that currency that nobody set up.
 * Retrying cannot help until someone opens the currency, so its event is dead-lettered and
 * replayed after that.
 */
export class LedgerCurrencyNotOpenError extends Error {
  readonly code = 'LEDGER_CURRENCY_NOT_OPEN' as const;

  constructor(readonly currency: string) {
    super(`the ledger is not open in ${currency}: open it in t_ledger_currency, then replay`);
    this.name = 'LedgerCurrencyNotOpenError';
  }
}
