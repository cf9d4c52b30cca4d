import { CreateOperatorAuditTable } from '@outbox-inbox/database';

/**
 * `t_operator_audit`, where the requeues of POST /outbox/dead/requeue are recorded, created by
 * the outbox's own migrations so that an app that runs OutboxMigrations needs nothing more. It
 * is created only when absent: the inbox's migrations (InboxOperatorAuditTable1765300000200)
 * and the standalone CreateOperatorAuditTable make the same table, and any of them may have.
 */
export class OutboxOperatorAuditTable1765300000100 extends CreateOperatorAuditTable {
  override name = 'OutboxOperatorAuditTable1765300000100';

  /** Leaves the table: the inbox's records, or another migration's claim, may share it. */
  override async down(): Promise<void> {
    // Nothing to undo that belongs to this package alone.
  }
}
