/** A claimed outbox row, as the relay needs it. Ids are strings (bigint). */
export interface ClaimedRow {
  id: string;
  aggregateType: string;
  aggregateId: string;
  aggregateVersion: number;
  eventType: string;
  eventKey: string;
  /** The envelope JSON, sent as the message value unchanged. */
  payload: string;
  headers: Record<string, string>;
  /** Failed attempts so far. */
  retryCount: number;
}

/**
 * A row as the driver returns it: JSON columns are strings on MariaDB and PostgreSQL (text),
 * objects on MySQL's JSON type; ids strings (bigint) on both.
 */
export interface ClaimedRowRecord {
  id: string | number;
  aggregate_type: string;
  aggregate_id: string;
  aggregate_version: number | string;
  event_type: string;
  event_key: string;
  payload: string | object;
  headers: string | object;
  retry_count: number | string;
}

/** Maps a database record to a ClaimedRow. */
export function toClaimedRow(record: ClaimedRowRecord): ClaimedRow {
  return {
    id: String(record.id),
    aggregateType: record.aggregate_type,
    aggregateId: record.aggregate_id,
    aggregateVersion: Number(record.aggregate_version),
    eventType: record.event_type,
    eventKey: record.event_key,
    payload: typeof record.payload === 'string' ? record.payload : JSON.stringify(record.payload),
    headers: (typeof record.headers === 'string'
      ? JSON.parse(record.headers)
      : record.headers) as Record<string, string>,
    retryCount: Number(record.retry_count),
  };
}

/** Identifies an aggregate: type and id. */
export function aggregateRef(row: { aggregateType: string; aggregateId: string }): string {
  return `${row.aggregateType}\u0000${row.aggregateId}`;
}
