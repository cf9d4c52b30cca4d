import { Pool } from 'mysql2/promise';

/** What a chain booked for a set of orders. */
export interface Books {
  orders: number;
  /** Orders with exactly one payment journal and one coupon journal. */
  complete: number;
  /** Journals whose header totals and lines each balance (debits = credits). */
  balancedJournals: number;
  journals: number;
}

/**
 * Reads the payment and coupon journals of `orderIds` with their lines from an accounting
 * database (the real chain's or the minimal chain's), and counts the orders whose chain did all
 * of its work, once, and journals that balance.
 */
export async function readBooks(accounting: Pool, orderIds: string[]): Promise<Books> {
  const [rows] = (await accounting.query(
    `SELECT j.order_id, j.kind, j.total_debit, j.total_credit,
            SUM(l.debit) AS line_debit, SUM(l.credit) AS line_credit
       FROM t_journal j JOIN t_journal_line l ON l.journal_id = j.id
      WHERE j.order_id IN (?) AND j.kind IN ('PAYMENT', 'COUPON_GRANT')
      GROUP BY j.id`,
    [orderIds],
  )) as unknown as [
    Array<{
      order_id: string;
      kind: string;
      total_debit: string;
      total_credit: string;
      line_debit: string;
      line_credit: string;
    }>,
  ];
  const kinds = new Map<string, string[]>();
  let balancedJournals = 0;
  for (const row of rows) {
    kinds.set(row.order_id, [...(kinds.get(row.order_id) ?? []), row.kind]);
    const amounts = [row.total_debit, row.total_credit, row.line_debit, row.line_credit].map(
      Number,
    );
    if (amounts[0] > 0 && amounts.every((amount) => amount === amounts[0])) balancedJournals++;
  }
  const complete = orderIds.filter((id) => {
    const booked = kinds.get(id) ?? [];
    return booked.length === 2 && booked.includes('PAYMENT') && booked.includes('COUPON_GRANT');
  }).length;
  return { orders: orderIds.length, complete, balancedJournals, journals: rows.length };
}

/** Whether every order has its two journals, once each, and every journal balances. */
export function booksComplete(books: Books): boolean {
  return (
    books.complete === books.orders &&
    books.journals === 2 * books.orders &&
    books.balancedJournals === books.journals
  );
}
