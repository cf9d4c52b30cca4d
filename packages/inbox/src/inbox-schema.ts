import { DeploymentFault, probeSchema, RequiredTable } from '@outbox-inbox/database';
import type { DataSource } from 'typeorm';

/** The tables InboxMigrations create, the columns the consumer uses, and what it writes. */
export const INBOX_TABLES: readonly RequiredTable[] = [
  {
    table: 't_inbox',
    columns: [
      'consumer',
      'id',
      'event_key',
      'event_type',
      'event_id',
      'outcome',
      'processed_at',
      'duplicate_count',
      'last_duplicate_at',
    ],
    writes: ['INSERT', 'UPDATE', 'DELETE'],
  },
  {
    table: 't_inbox_version',
    columns: [
      'consumer',
      'aggregate_type',
      'aggregate_id',
      'last_version',
      'parked_count',
      'updated_at',
    ],
    writes: ['INSERT', 'UPDATE', 'DELETE'],
  },
  {
    table: 't_inbox_parked',
    columns: [
      'consumer',
      'id',
      'aggregate_type',
      'aggregate_id',
      'aggregate_version',
      'event_key',
      'event_type',
      'envelope',
      'already_handled',
      'source_topic',
      'source_partition',
      'source_offset',
      'parked_at',
    ],
    writes: ['INSERT', 'DELETE'],
  },
  {
    table: 't_inbox_dlq_replay',
    columns: [
      'consumer',
      'dlq_topic',
      'dlq_partition',
      'dlq_offset',
      'target_topic',
      'replayed_at',
    ],
    writes: ['INSERT'],
  },
  {
    table: 't_inbox_skip',
    columns: [
      'consumer',
      'id',
      'aggregate_type',
      'aggregate_id',
      'aggregate_version',
      'reason',
      'skipped_by',
      'skipped_at',
      'drained',
    ],
    writes: ['INSERT'],
  },
  {
    table: 't_inbox_prune',
    columns: ['consumer', 'pruned_before', 'pruned_through_id', 'pruned_at'],
    writes: ['INSERT', 'UPDATE'],
  },
];

/**
 * What the inbox lacks on `dataSource`, as its own user sees it: a table or column that
 * InboxMigrations create, or a privilege the consumer needs; empty when nothing is missing.
 * Statements that touch no row; rejects when the database does not answer. For a readiness
 * check: an instance without its tables cannot take in a single event.
 */
export function probeInboxSchema(
  dataSource: Pick<DataSource, 'query'>,
): Promise<DeploymentFault[]> {
  return probeSchema(dataSource, INBOX_TABLES);
}
