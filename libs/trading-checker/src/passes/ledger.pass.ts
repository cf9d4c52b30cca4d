import { num, str } from '../read/database-snapshot';
import { CheckContext } from './check-context';

const KIND_RULE = {
  PAYMENT: 'payment-journal-matches-order',
  REFUND: 'refund-matches-cancelled-payment',
  COUPON_GRANT: 'coupon-grant-has-one-journal',
  COUPON_REVOKE: 'coupon-revoke-has-one-journal',
} as const;

/**
 * The ledger on its own: streams journals by id and, per page, lets the database sum their
 * lines (`journal-is-balanced`) and finds journals of orders that do not exist (journals of
 * existing orders are the order pass's); then sums every account's lines in one statement
 * (`balance-equals-journal-lines`).
 */
export async function ledgerPass(context: CheckContext): Promise<void> {
  const { deployment, findings } = context;
  const db = deployment.accounting;
  const pages = db.pages(
    'SELECT id, kind, order_id FROM t_journal WHERE id > ? ORDER BY id LIMIT ?',
    (r) => str(r.id),
    '0',
    context.pageSize,
  );
  for await (const rows of pages) {
    const unbalanced = await db.query(
      `SELECT j.id, j.kind, j.order_id FROM t_journal j
       LEFT JOIN t_journal_line l ON l.journal_id = j.id
       WHERE j.id BETWEEN ? AND ?
       GROUP BY j.id, j.kind, j.order_id, j.currency, j.total_debit, j.total_credit
       HAVING COALESCE(SUM(l.debit), 0) <> COALESCE(SUM(l.credit), 0)
         OR COALESCE(SUM(l.debit), 0) <> j.total_debit OR COALESCE(SUM(l.credit), 0) <> j.total_credit
         OR COUNT(l.id) < 2 OR COALESCE(SUM(l.currency <> j.currency), 0) > 0`,
      [str(rows[0].id), str(rows[rows.length - 1].id)],
    );
    for (const j of unbalanced)
      findings.violate(
        'journal-is-balanced',
        `journal ${str(j.id)} (${str(j.kind)}, order ${str(j.order_id)})`,
      );
    const ids = [...new Set(rows.map((r) => str(r.order_id)))];
    const found = await deployment.order.query('SELECT id FROM t_order WHERE id IN (?)', [ids]);
    const existing = new Set(found.map((r) => str(r.id)));
    for (const j of rows) {
      const rule = KIND_RULE[str(j.kind) as keyof typeof KIND_RULE];
      if (rule && !existing.has(str(j.order_id)))
        findings.violate(
          rule,
          `journal ${str(j.id)} (${str(j.kind)}, order ${str(j.order_id)}): no such order`,
        );
    }
  }
  const balances = await db.query(
    `SELECT a.code, a.currency, a.balance, COALESCE(l.sum, 0) AS from_lines FROM t_account a
     LEFT JOIN (SELECT account_code, currency, SUM(debit - credit) AS sum FROM t_journal_line
                GROUP BY account_code, currency) l
       ON l.account_code = a.code AND l.currency = a.currency
     WHERE a.balance <> COALESCE(l.sum, 0)`,
  );
  for (const b of balances)
    findings.violate(
      'balance-equals-journal-lines',
      `${str(b.code)} ${str(b.currency)}: balance ${num(b.balance)}, lines ${num(b.from_lines)}`,
    );
}
