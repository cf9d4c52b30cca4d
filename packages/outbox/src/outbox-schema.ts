import { DeploymentFault, probeSchema, RequiredTable } from '@outbox-inbox/database';
import type { DataSource } from 'typeorm';

/** t_outbox as OutboxMigrations create it, and what the writer, the relay and retention do to it. */
export const OUTBOX_TABLES: readonly RequiredTable[] = [
  {
    table: 't_outbox',
    columns: [
      'status',
      'id',
      'aggregate_type',
      'aggregate_id',
      'aggregate_version',
      'event_type',
      'event_key',
      'event_id',
      'payload',
      'headers',
      'retry_count',
      'next_retry_at',
      'last_error',
      'lease_owner',
      'lease_token',
      'lease_until',
      'created_at',
      'updated_at',
      'sent_at',
    ],
    writes: ['INSERT', 'UPDATE', 'DELETE'],
  },
];

/**
 * What the outbox lacks on `dataSource`, as its own user sees it: t_outbox or a column of it
 * (OutboxMigrations), or a privilege the writer and the relay need; empty when nothing is
 * missing. Statements that touch no row; rejects when the database does not answer. For a
 * readiness check: an instance that cannot write t_outbox cannot serve a single command.
 */
export function probeOutboxSchema(
  dataSource: Pick<DataSource, 'query'>,
): Promise<DeploymentFault[]> {
  return probeSchema(dataSource, OUTBOX_TABLES);
}
