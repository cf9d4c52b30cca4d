import { recordOperatorAction, runTransaction } from '@outbox-inbox/database';
import { DataSource, EntityManager } from 'typeorm';
import { InboxError } from '../inbox.errors';

/** What `POST /inbox/gaps/skip` and `ops gap:skip` ask for. */
export interface SkipVersionRequest {
  aggregateType: string;
  aggregateId: string;
  /** The missing version: the one after the last applied. */
  version: number;
  /** Why it will never come; kept in the audit row. */
  reason: string;
  /** Who skipped it: the operator token's name. Default 'operator'. */
  skippedBy?: string;
}

/** What a skip did. */
export interface SkipVersionResult {
  aggregateType: string;
  aggregateId: string;
  skippedVersion: number;
  /** Parked successors applied right after, in the same transaction. */
  drained: number;
  /** The aggregate's last applied version afterwards. */
  lastVersion: number;
}

/**
 * Applies the parked successors of an aggregate whose next version is no longer missing, and
 * answers how many it applied (InboxProcessor).
 */
export interface ParkedDrain {
  drainReady(manager: EntityManager, aggregateType: string, aggregateId: string): Promise<number>;
}

/**
 * Marks the missing version of an aggregate as skipped on purpose, in one transaction: the
 * audit row (reason, who, when), the gate moved past the version, and the parked successors
 * drained (when the transport runs in this process; otherwise its next gap check drains them).
 * Only the version right after the last applied one can be skipped, and only while it has not
 * arrived: InboxError SKIP_REFUSED otherwise, and nothing changes.
 */
export async function skipVersion(
  dataSource: DataSource,
  consumer: string,
  request: SkipVersionRequest,
  drain?: ParkedDrain,
): Promise<SkipVersionResult> {
  const { aggregateType, aggregateId, version, reason } = request;
  return runTransaction(dataSource, async (manager) => {
    const rows = (await manager.query(
      `SELECT last_version, parked_count FROM t_inbox_version
       WHERE consumer = ? AND aggregate_type = ? AND aggregate_id = ? FOR UPDATE`,
      [consumer, aggregateType, aggregateId],
    )) as Array<{ last_version: number | string; parked_count: number | string }>;
    const last = rows.length > 0 ? Number(rows[0].last_version) : 0;
    if (version !== last + 1) {
      throw new InboxError(
        'SKIP_REFUSED',
        `${aggregateType} ${aggregateId}: version ${version} is not the missing one (last applied ${last}, so ${last + 1} is)`,
      );
    }
    const parkedHere = (await manager.query(
      `SELECT COUNT(*) AS n FROM t_inbox_parked
       WHERE consumer = ? AND aggregate_type = ? AND aggregate_id = ? AND aggregate_version = ?`,
      [consumer, aggregateType, aggregateId, version],
    )) as Array<{ n: number | string }>;
    if (Number(parkedHere[0].n) > 0) {
      throw new InboxError(
        'SKIP_REFUSED',
        `${aggregateType} ${aggregateId}: version ${version} has arrived and is parked; it is not missing`,
      );
    }
    if (rows.length === 0) {
      await manager.query(
        `INSERT INTO t_inbox_version
           (consumer, aggregate_type, aggregate_id, last_version, parked_count, updated_at)
         VALUES (?, ?, ?, ?, 0, ?)`,
        [consumer, aggregateType, aggregateId, version, new Date()],
      );
    } else {
      await manager.query(
        `UPDATE t_inbox_version SET last_version = ?, updated_at = ?
         WHERE consumer = ? AND aggregate_type = ? AND aggregate_id = ?`,
        [version, new Date(), consumer, aggregateType, aggregateId],
      );
    }
    const drained = drain ? await drain.drainReady(manager, aggregateType, aggregateId) : 0;
    await manager.query(
      `INSERT INTO t_inbox_skip (consumer, aggregate_type, aggregate_id, aggregate_version,
         reason, skipped_by, skipped_at, drained)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        consumer,
        aggregateType,
        aggregateId,
        version,
        reason,
        request.skippedBy ?? 'operator',
        new Date(),
        drained,
      ],
    );
    await recordOperatorAction(manager, {
      area: 'inbox',
      action: 'inbox.gap-skip',
      target: { consumer, aggregateType, aggregateId, version },
      count: 1,
      reason,
      who: request.skippedBy ?? 'operator',
    });
    return {
      aggregateType,
      aggregateId,
      skippedVersion: version,
      drained,
      lastVersion: version + drained,
    };
  });
}
