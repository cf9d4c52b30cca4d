import { ClaimedRow } from '../store/outbox-row';

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
 * the first row: a row over the budget goes alone (and one over `maxMessageBytes` then becomes
 * DEAD in the publish plan). `leftOut` is how many rows did not fit: they stay for the next
 * claim.
 */
export function takeWithinBytes<T extends Pick<ClaimedRow, 'aggregateId' | 'payload' | 'headers'>>(
  rows: T[],
  maxBytes: number,
): { taken: T[]; leftOut: number; bytes: number } {
  let total = 0;
  for (let i = 0; i < rows.length; i++) {
    const bytes = rowBytes(rows[i]);
    if (total + bytes > maxBytes && i > 0) {
      return { taken: rows.slice(0, i), leftOut: rows.length - i, bytes: total };
    }
    total += bytes;
  }
  return { taken: rows, leftOut: 0, bytes: total };
}

/**
 * How many rows a claim asks for: `batchSize`, or, once rows of `bytesPerRow` on average were
 * seen, about as many as `maxBatchBytes` holds (at least one). Rows past the budget would only
 * be read and locked to be left out: with large events, reading `batchSize` of them could take
 * hundreds of megabytes for one request's worth.
 */
export function rowsToAsk(
  options: { batchSize: number; maxBatchBytes: number },
  bytesPerRow: number,
): number {
  if (!(bytesPerRow > 0)) return options.batchSize;
  const fit = Math.floor(options.maxBatchBytes / bytesPerRow);
  return Math.max(1, Math.min(options.batchSize, fit));
}
