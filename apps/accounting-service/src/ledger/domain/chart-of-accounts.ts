/**
 * The chart of accounts of the trading chain, and the postings each event makes.
 *
 * | code | account            | type      | normal side |
 * | ---- | ------------------ | --------- | ----------- |
 * | 1100 | Payment clearing   | ASSET     | debit       |
 * | 2200 | Coupon liability   | LIABILITY | credit      |
 * | 2300 | Refunds payable    | LIABILITY | credit      |
 * | 4000 | Sales revenue      | REVENUE   | credit      |
 * | 5100 | Coupon expense     | EXPENSE   | debit       |
 *
 * Postings (amounts in the event's currency, integer minor units; see postings.ts):
 * - OrderPaid (amount):            Dr 1100 Payment clearing  / Cr 4000 Sales revenue
 * - FulfillmentDone (couponValue): Dr 5100 Coupon expense    / Cr 2200 Coupon liability
 * - FulfillmentReverted (value):   Dr 2200 Coupon liability  / Cr 5100 Coupon expense
 * - OrderCancelled, order paid:    Dr 4000 Sales revenue     / Cr 2300 Refunds payable
 * - OrderCancelled, never paid, or a coupon of value 0: nothing to book.
 *
 * Why revenue is recognised at payment and not deferred until fulfillment: FulfillmentDone
 * travels on another topic than OrderPaid, so Kafka gives no order between the two. A
 * deferral would make the FulfillmentDone journal depend on the amount of an OrderPaid that
 * may not have arrived yet. With these postings every journal is a function of its own event
 * (OrderCancelled also reads the earlier OrderPaid of the same order, which the inbox's
 * per-aggregate version gate delivers first), so arrival order across topics never matters.
 * The coupon is the reward the paid order earns: a marketing cost with a liability for the
 * coupons outstanding, released when fulfillment revokes one.
 */
export type AccountType = 'ASSET' | 'LIABILITY' | 'EQUITY' | 'REVENUE' | 'EXPENSE';

/** One account of the chart; balances are kept per account and currency. */
export interface AccountDefinition {
  readonly code: string;
  readonly name: string;
  readonly type: AccountType;
}

/** The accounts by role, so postings name roles rather than bare codes. */
export const Accounts = {
  PAYMENT_CLEARING: { code: '1100', name: 'Payment clearing', type: 'ASSET' },
  COUPON_LIABILITY: { code: '2200', name: 'Coupon liability', type: 'LIABILITY' },
  REFUNDS_PAYABLE: { code: '2300', name: 'Refunds payable', type: 'LIABILITY' },
  SALES_REVENUE: { code: '4000', name: 'Sales revenue', type: 'REVENUE' },
  COUPON_EXPENSE: { code: '5100', name: 'Coupon expense', type: 'EXPENSE' },
} as const satisfies Record<string, AccountDefinition>;

/** Every account of the chart, in code order. */
export const CHART_OF_ACCOUNTS: readonly AccountDefinition[] = Object.values(Accounts).sort(
  (a, b) => (a.code < b.code ? -1 : 1),
);

/** The account with `code`, or undefined when the chart has none. */
export function findAccount(code: string): AccountDefinition | undefined {
  return CHART_OF_ACCOUNTS.find((account) => account.code === code);
}

/** Assets and expenses grow with debits; liabilities, equity and revenue with credits. */
export function isDebitNormal(type: AccountType): boolean {
  return type === 'ASSET' || type === 'EXPENSE';
}
