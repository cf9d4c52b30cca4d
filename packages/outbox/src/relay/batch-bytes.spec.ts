import { rowBytes, rowsToAsk, takeWithinBytes } from './batch-bytes';

const row = (payload: string, headers: Record<string, string> = {}) => ({
  aggregateId: 'o1',
  payload,
  headers,
});

describe('rowBytes', () => {
  it('counts key, value and header names and values in UTF-8 bytes', () => {
    expect(rowBytes(row('{"a":1}', { 'event-key': 'K' }))).toBe(2 + 7 + 9 + 1);
    expect(rowBytes(row('€'))).toBe(2 + 3);
  });
});

describe('takeWithinBytes', () => {
  const rows = [row('x'.repeat(98)), row('x'.repeat(98)), row('x'.repeat(98))];

  it('takes the longest prefix within the budget and counts what it left out', () => {
    expect(takeWithinBytes(rows, 300)).toEqual({ taken: rows, leftOut: 0, bytes: 300 });
    expect(takeWithinBytes(rows, 299)).toEqual({ taken: rows.slice(0, 2), leftOut: 1, bytes: 200 });
    expect(takeWithinBytes(rows, 200)).toEqual({ taken: rows.slice(0, 2), leftOut: 1, bytes: 200 });
    expect(takeWithinBytes(rows, 199)).toEqual({ taken: rows.slice(0, 1), leftOut: 2, bytes: 100 });
  });

  it('lets a first row over the budget go alone, and takes nothing from nothing', () => {
    expect(takeWithinBytes(rows, 10)).toEqual({ taken: rows.slice(0, 1), leftOut: 2, bytes: 100 });
    expect(takeWithinBytes([], 10)).toEqual({ taken: [], leftOut: 0, bytes: 0 });
  });
});

describe('rowsToAsk', () => {
  const options = { batchSize: 500, maxBatchBytes: 900_000 };

  it('asks for a whole batch until rows were seen, and while they are small', () => {
    expect(rowsToAsk(options, 0)).toBe(500);
    expect(rowsToAsk(options, 1_000)).toBe(500);
  });

  it('asks for about what the byte budget holds once rows are large, at least one', () => {
    expect(rowsToAsk(options, 100_000)).toBe(9);
    expect(rowsToAsk(options, 450_000)).toBe(2);
    expect(rowsToAsk(options, 2_000_000)).toBe(1);
  });
});
