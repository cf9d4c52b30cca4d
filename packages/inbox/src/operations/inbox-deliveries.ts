import { EventRegistry } from '@outbox-inbox/messaging';
import { DataSource } from 'typeorm';
import { AggregateSelector } from './aggregate-selector';
import { inboxOperationsSqlOf } from './sql/inbox-operations-sql-of';

export type { AggregateSelector } from './aggregate-selector';

/** One event as this consumer's inbox took it in, with the duplicates it absorbed since. */
export interface InboxDeliveryRecord {
  consumer: string;
  eventKey: string;
  eventType: string;
  eventId: string;
  /** applied, ignored, stale or parked; `skipped` for a version skipped on purpose. */
  outcome: string;
  /** Why a version was skipped, and by whom (skipped rows only). */
  reason?: string;
  processedAt: string;
  duplicateCount: number;
  lastDuplicateAt: string | null;
}

/**
 * The inbox rows of the events of `aggregates`, oldest first. Event keys are
 * `${eventType}:${aggregateId}:${version}`, so each event type of the aggregate (from the
 * registry) becomes one prefix range on the (consumer, event_key) index.
 */
export async function findDeliveries(
  dataSource: DataSource,
  registry: EventRegistry,
  consumer: string,
  aggregates: AggregateSelector[],
): Promise<InboxDeliveryRecord[]> {
  const prefixes = aggregates.flatMap(({ aggregateType, aggregateId }) =>
    registry
      .list()
      .filter((d) => d.aggregateType === aggregateType)
      .map((d) => `${escapeLike(`${d.eventType}:${aggregateId}:`)}%`),
  );
  const skips = await findSkips(dataSource, consumer, aggregates);
  if (prefixes.length === 0) return skips;
  const { sql, params } = inboxOperationsSqlOf(dataSource).deliveries(consumer, prefixes);
  const rows = (await dataSource.query(sql, params)) as Array<{
    consumer: string;
    event_key: string;
    event_type: string;
    event_id: string;
    outcome: string;
    processed_at: Date;
    duplicate_count: number | string;
    last_duplicate_at: Date | null;
  }>;
  const delivered = rows.map((r) => ({
    consumer: r.consumer,
    eventKey: r.event_key,
    eventType: r.event_type,
    eventId: r.event_id,
    outcome: r.outcome,
    processedAt: new Date(r.processed_at).toISOString(),
    duplicateCount: Number(r.duplicate_count),
    lastDuplicateAt: r.last_duplicate_at && new Date(r.last_duplicate_at).toISOString(),
  }));
  return [...delivered, ...skips].sort((a, b) => a.processedAt.localeCompare(b.processedAt));
}

/** Versions of `aggregates` skipped on purpose, as delivery records with outcome `skipped`. */
async function findSkips(
  dataSource: DataSource,
  consumer: string,
  aggregates: AggregateSelector[],
): Promise<InboxDeliveryRecord[]> {
  if (aggregates.length === 0) return [];
  const { sql, params } = inboxOperationsSqlOf(dataSource).skips(consumer, aggregates);
  const rows = (await dataSource.query(sql, params)) as Array<{
    aggregate_type: string;
    aggregate_id: string;
    aggregate_version: number | string;
    reason: string;
    skipped_by: string;
    skipped_at: Date;
  }>;
  return rows.map((r) => ({
    consumer,
    eventKey: `${r.aggregate_type}:${r.aggregate_id}:${r.aggregate_version}`,
    eventType: `${r.aggregate_type} v${r.aggregate_version}`,
    eventId: '',
    outcome: 'skipped',
    reason: `${r.reason} (by ${r.skipped_by})`,
    processedAt: new Date(r.skipped_at).toISOString(),
    duplicateCount: 0,
    lastDuplicateAt: null,
  }));
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
