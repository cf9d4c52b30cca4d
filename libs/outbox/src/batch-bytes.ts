import { ClaimedRow } from './outbox-row';

/** What a row's message weighs on the wire, before framing: key, value, header names and values. */
export function rowBytes(row: Pick<ClaimedRow, 'aggregateId' | 'payload' | 'headers'>): number {
  let bytes = Buffer.byteLength(row.aggregateId) + Buffer.byteLength(row.payload);
  for (const [name, value] of Object.entries(row.headers)) {
    bytes += Buffer.byteLength(name) + Buffer.byteLength(value);
  }
  return bytes;
}

/**
 * The longest prefix of `rows` whose messages together weigh at most `maxBytes`, and at least
 * the first row (a row over the budget goes alone; one over `maxMessageBytes` never gets this
 * far). `leftOut` is how many rows did not fit: they stay for the next claim.
 */
export function takeWithinBytes<T extends Pick<ClaimedRow, 'aggregateId' | 'payload' | 'headers'>>(
  rows: T[],
  maxBytes: number,
): { taken: T[]; leftOut: number } {
  let total = 0;
  for (let i = 0; i < rows.length; i++) {
    total += rowBytes(rows[i]);
    if (total > maxBytes && i > 0) return { taken: rows.slice(0, i), leftOut: rows.length - i };
  }
  return { taken: rows, leftOut: 0 };
}
