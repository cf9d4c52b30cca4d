import { findAccount } from './chart-of-accounts';
import { JournalError } from './ledger.errors';

/** What a journal books: the business meaning of its postings. */
export type JournalKind = 'PAYMENT' | 'COUPON_GRANT' | 'COUPON_REVOKE' | 'REFUND';

/** The event a journal is booked for; its key makes the booking happen once. */
export interface JournalSource {
  /** `eventType:aggregateId:aggregateVersion`; unique among journals. */
  eventKey: string;
  eventType: string;
  eventId: string;
  orderId: string;
  occurredAt: Date;
}

/** One line as written by a posting rule: exactly one of debit or credit, in minor units. */
export interface JournalLineDraft {
  accountCode: string;
  debit?: number;
  credit?: number;
}

/** A line of a built journal; the side not used is 0. */
export interface JournalLine {
  readonly lineNo: number;
  readonly accountCode: string;
  readonly debit: number;
  readonly credit: number;
}

/** How one account's balance moves: + for a net debit, - for a net credit. */
export interface BalanceChange {
  readonly accountCode: string;
  readonly delta: number;
}

/** Everything needed to build a journal. */
export interface JournalDraft {
  source: JournalSource;
  kind: JournalKind;
  currency: string;
  description: string;
  lines: JournalLineDraft[];
}

const CURRENCY = /^[A-Z]{3}$/;

/**
 * A balanced double-entry journal in one currency. It cannot be built unbalanced: `create`
 * checks that there are at least two lines, that every amount is a positive safe integer of
 * minor units on exactly one side, that every account is in the chart, and that debits equal
 * credits.
 */
export class Journal {
  private constructor(
    readonly source: Readonly<JournalSource>,
    readonly kind: JournalKind,
    readonly currency: string,
    readonly description: string,
    readonly lines: readonly JournalLine[],
    /** Sum of the debits, which equals the sum of the credits. */
    readonly total: number,
  ) {}

  static create(draft: JournalDraft): Journal {
    const { source, currency } = draft;
    if (!source.eventKey || source.eventKey.length > 190 || !source.orderId) {
      throw new JournalError('JOURNAL_SOURCE_INVALID', 'a journal needs an event key and an order');
    }
    if (!CURRENCY.test(currency)) {
      throw new JournalError('JOURNAL_CURRENCY_INVALID', `"${currency}" is not an ISO currency`);
    }
    if (draft.lines.length < 2) {
      throw new JournalError('JOURNAL_TOO_FEW_LINES', 'a journal needs at least two lines');
    }
    const lines = draft.lines.map((line, index) => toLine(line, index + 1));
    const debits = lines.reduce((sum, line) => sum + line.debit, 0);
    const credits = lines.reduce((sum, line) => sum + line.credit, 0);
    if (debits !== credits || !Number.isSafeInteger(debits)) {
      throw new JournalError(
        'JOURNAL_UNBALANCED',
        `debits ${debits} differ from credits ${credits} (${source.eventKey})`,
      );
    }
    return new Journal(
      Object.freeze({ ...source }),
      draft.kind,
      currency,
      draft.description,
      Object.freeze(lines),
      debits,
    );
  }

  /**
   * Net movement per account, sorted by account code: the order in which balances are
   * updated (and so locked), so that concurrent bookings never wait on each other in a cycle.
   */
  balanceChanges(): BalanceChange[] {
    const byAccount = new Map<string, number>();
    for (const line of this.lines) {
      byAccount.set(
        line.accountCode,
        (byAccount.get(line.accountCode) ?? 0) + line.debit - line.credit,
      );
    }
    return (
      [...byAccount]
        // Plain code-unit order, the same in every process whatever its locale.
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([accountCode, delta]) => ({ accountCode, delta }))
    );
  }
}

function toLine(draft: JournalLineDraft, lineNo: number): JournalLine {
  if (!findAccount(draft.accountCode)) {
    throw new JournalError(
      'JOURNAL_ACCOUNT_UNKNOWN',
      `account ${draft.accountCode} is not in the chart`,
    );
  }
  const debit = draft.debit ?? 0;
  const credit = draft.credit ?? 0;
  const used = [debit, credit].filter((amount) => amount !== 0);
  if (used.length !== 1 || !Number.isSafeInteger(used[0]) || used[0] <= 0) {
    throw new JournalError(
      'JOURNAL_AMOUNT_INVALID',
      `line ${lineNo} (${draft.accountCode}) needs one positive integer amount on one side`,
    );
  }
  return { lineNo, accountCode: draft.accountCode, debit, credit };
}
