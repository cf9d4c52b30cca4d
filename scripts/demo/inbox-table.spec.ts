import { formatInboxTable } from './inbox-table';
import { deadLetter, orderAtRest, runOf } from './run-state.fixtures';

const copies = { 'fulfillment-service': 3, 'accounting-service': 4 };

/** The table's header and rows: the lines after the title, up to the first note. */
function tableOf(lines: string[]): string[] {
  return lines.slice(1, 1 + 4);
}

describe('the inbox table of the demo summary', () => {
  // Order 1 was delivered 3 more times; order 2's OrderPaid was dead-lettered at the ledger,
  // then replayed and applied.
  const state = runOf([orderAtRest('1', 3), orderAtRest('2')], {
    'accounting-service': [deadLetter('OrderPaid:2:3', 0, '2026-12-09T10:00:00.000Z')],
  });
  const lines = formatInboxTable(state, copies, 1);

  it('adds up: deliveries = duplicates + applied + ignored + dead-lettered, on every row', () => {
    const [header, , ...rows] = tableOf(lines);
    expect(header.trim().split(/\s{2,}/)).toEqual([
      'consumer',
      'deliveries',
      '= duplicates',
      '+ applied',
      '+ ignored',
      '+ dead-lettered',
    ]);
    const figures = rows.map((r) => r.trim().split(/\s+/));
    expect(figures).toEqual([
      ['fulfillment-service', '9', '3', '2', '4', '0'],
      ['accounting-service', '12', '3', '4', '4', '1'],
    ]);
    for (const [, deliveries, ...terms] of figures)
      expect(Number(deliveries)).toBe(terms.reduce((sum, n) => sum + Number(n), 0));
  });

  it('lines each figure up under the end of its header, and the names under theirs', () => {
    const [header, , ...rows] = tableOf(lines);
    const ends = (line: string) =>
      [...line.matchAll(/\S+(?: \S+)?(?= {2,}|$)/g)].map((m) => m.index + m[0].length);
    for (const row of rows) {
      expect(row.indexOf(row.trim())).toBe(header.indexOf('consumer'));
      expect(ends(row).slice(1)).toEqual(ends(header).slice(1));
    }
  });

  it('names what was ignored and the copies each inbox had to absorb', () => {
    const notes = lines.slice(5).join('\n');
    expect(notes).toContain('no handler for its type (OrderCreated, OrderPaymentStarted)');
    expect(notes).toContain('fulfillment-service 3, accounting-service 4');
    expect(notes).toContain('1 replayed');
  });
});
