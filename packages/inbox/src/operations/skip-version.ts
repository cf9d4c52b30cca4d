import { recordOperatorAction, runTransaction } from '@outbox-inbox/database';
import { DataSource, EntityManager } from 'typeorm';
import { InboxError } from '../inbox.errors';
import { inboxOperationsSqlOf } from './sql/inbox-operations-sql-of';

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
  const aggregate = { aggregateType, aggregateId };
  const statements = inboxOperationsSqlOf(dataSource);
  return runTransaction(dataSource, async (manager) => {
    const run = ({ sql, params }: { sql: string; params: unknown[] }) => manager.query(sql, params);
    const rows = (await run(statements.lockGate(consumer, aggregate))) as Array<{
      last_version: number | string;
      parked_count: number | string;
    }>;
    const last = rows.length > 0 ? Number(rows[0].last_version) : 0;
    if (version !== last + 1) {
      throw new InboxError(
        'SKIP_REFUSED',
        `${aggregateType} ${aggregateId}: version ${version} is not the missing one (last applied ${last}, so ${last + 1} is)`,
      );
    }
    const parkedHere = (await run(statements.parkedAt(consumer, aggregate, version))) as Array<{
      n: number | string;
    }>;
    if (Number(parkedHere[0].n) > 0) {
      throw new InboxError(
        'SKIP_REFUSED',
        `${aggregateType} ${aggregateId}: version ${version} has arrived and is parked; it is not missing`,
      );
    }
    await run(
      rows.length === 0
        ? statements.insertGate(consumer, aggregate, version)
        : statements.moveGate(consumer, aggregate, version),
    );
    const drained = drain ? await drain.drainReady(manager, aggregateType, aggregateId) : 0;
    await run(
      statements.insertSkip({
        consumer,
        aggregateType,
        aggregateId,
        version,
        reason,
        skippedBy: request.skippedBy ?? 'operator',
        drained,
      }),
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
