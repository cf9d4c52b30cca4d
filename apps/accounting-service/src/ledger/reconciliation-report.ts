// What reconciliation reports: plain types, shared by the checks and the service that runs them.

/** The kinds of disagreement reconciliation looks for. */
export type MismatchKind =
  | 'PAID_WITHOUT_JOURNAL'
  | 'JOURNAL_WITHOUT_PAID_ORDER'
  | 'PAYMENT_AMOUNT_MISMATCH'
  | 'DUPLICATE_PAYMENT_JOURNAL'
  | 'UNBALANCED_JOURNAL'
  | 'BALANCE_MISMATCH'
  | 'REFUND_WITHOUT_PAYMENT'
  | 'REFUND_OF_STALE_CANCEL'
  | 'REFUND_AMOUNT_MISMATCH'
  | 'DUPLICATE_REFUND'
  | 'REVOKE_WITHOUT_GRANT';

/** One disagreement; money is a decimal string of minor units. */
export interface Mismatch {
  kind: MismatchKind;
  orderId?: string;
  journalId?: string;
  accountCode?: string;
  currency?: string;
  expected?: string;
  actual?: string;
  detail: string;
}

/** The outcome of one reconciliation run. */
export interface ReconciliationReport {
  clean: boolean;
  checkedAt: string;
  paidOrders: number;
  paymentJournals: number;
  journals: number;
  mismatches: Mismatch[];
  /** True when a check found more than `limitPerCheck` rows and listed only the first ones. */
  truncated: boolean;
}
