import { CreateOperatorAuditTable } from '@outbox-inbox/database';

/**
 * `t_operator_audit`, where replays and gap skips are recorded, created by the inbox's own
 * migrations so that an app that runs InboxMigrations needs nothing more. It is created only
 * when absent: the outbox's migrations (OutboxOperatorAuditTable1765300000100) and the
 * standalone CreateOperatorAuditTable make the same table, and any of them may have.
 */
export class InboxOperatorAuditTable1765300000200 extends CreateOperatorAuditTable {
  override name = 'InboxOperatorAuditTable1765300000200';

  /** Leaves the table: the outbox's records, or another migration's claim, may share it. */
  override async down(): Promise<void> {
    // Nothing to undo that belongs to this package alone.
  }
}
