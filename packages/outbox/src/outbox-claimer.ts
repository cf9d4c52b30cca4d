import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { rowsToAsk, takeWithinBytes } from './batch-bytes';
import { EarlierUnsent, planBatch } from './batch-order';
import { aggregateRef, ClaimedRow, ClaimedRowRecord, toClaimedRow } from './outbox-row';
import { OutboxRelayOptions } from './outbox-relay.options';
import { OutboxState } from './outbox-state';
import { Claim, OutboxClaims } from './outbox-store.port';

export type { Claim } from './outbox-store.port';

const ROW_COLUMNS = `id, aggregate_type, aggregate_id, aggregate_version, event_type, event_key,
  payload, headers, retry_count`;

/**
 * Due NEW rows, oldest due first. Reads only the ('NEW', next_retry_at <= now) range of
 * idx_status_retry, in index order (no filesort), and skips rows other relays are claiming.
 * MariaDB 10.11 EXPLAIN with 1,000,000 SENT rows and 3,000 NEW rows present (see
 * test/outbox-claim-plan.int-spec.ts):
 *   select_type=SIMPLE table=t_outbox type=range key=idx_status_retry rows≈3000
 *   Extra="Using index condition"   (no "Using filesort", SENT rows never examined)
 */
export const CLAIM_DUE_NEW_SQL = `SELECT ${ROW_COLUMNS} FROM t_outbox
  WHERE status = 'NEW' AND next_retry_at <= UTC_TIMESTAMP(3)
  ORDER BY next_retry_at, id LIMIT ? FOR UPDATE SKIP LOCKED`;

/**
 * SENDING rows whose lease expired (their relay died or stalled): a range of idx_status_retry,
 * where a SENDING row's next_retry_at is its lease expiry. `lease_until` is checked too, for
 * rows leased before that was so (SingleStatusIndex1765000000000).
 */
export const CLAIM_EXPIRED_SQL = `SELECT ${ROW_COLUMNS} FROM t_outbox
  WHERE status = 'SENDING' AND next_retry_at <= UTC_TIMESTAMP(3)
    AND lease_until <= UTC_TIMESTAMP(3)
  ORDER BY next_retry_at, id LIMIT ? FOR UPDATE SKIP LOCKED`;

/** Longest time between two looks for expired leases while full batches keep coming. */
export const EXPIRED_CHECK_MS = 1_000;

interface EarlierRecord {
  aggregate_type: string;
  aggregate_id: string;
  aggregate_version: number | string;
  status: string;
  due_in_ms: number | string | null;
}

export type ClaimOptions = Pick<
  OutboxRelayOptions,
  | 'batchSize'
  | 'maxBatchBytes'
  | 'leaseMs'
  | 'deadPolicy'
  | 'blockedRecheckMs'
  | 'deadBlockedRecheckMs'
>;

/**
 * Claims a batch in one short READ COMMITTED transaction: lock due candidates with
 * FOR UPDATE SKIP LOCKED, hold back any whose aggregate still has an earlier unsent version
 * outside the batch (so N+1 never overtakes N, across relays too), and lease the rest with a
 * token unique to this claim.
 */
export class OutboxClaimer implements OutboxClaims {
  private expiredCheckedAt = 0;
  /** Average message bytes of the rows the last claim took; 0 before the first. */
  private bytesPerRow = 0;
  private readonly expiredCheckMs: number;
  /** Tokens of this claimer's leases that may still hold rows, with when each was taken. */
  private readonly leases = new Map<string, number>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: ClaimOptions,
    private readonly owner: string,
  ) {
    this.expiredCheckMs = Math.min(EXPIRED_CHECK_MS, options.leaseMs / 4);
  }

  async claim(): Promise<Claim | null> {
    const claim = await this.claimInTransaction();
    const now = Date.now();
    for (const [token, leasedAt] of this.leases) {
      if (leasedAt + this.options.leaseMs < now) this.leases.delete(token);
    }
    if (claim) this.leases.set(claim.token, claim.leasedAt);
    return claim;
  }

  /**
   * Tokens of the leases this claimer took that have not expired yet: shutdown hands their
   * rows back by token, so two processes that share an instance id never release each
   * other's rows.
   */
  liveLeaseTokens(): string[] {
    const now = Date.now();
    return [...this.leases]
      .filter(([, leasedAt]) => leasedAt + this.options.leaseMs >= now)
      .map(([token]) => token);
  }

  private claimInTransaction(): Promise<Claim | null> {
    return this.dataSource.transaction('READ COMMITTED', async (manager) => {
      const batch = rowsToAsk(this.options, this.bytesPerRow);
      // Expired leases are rare (a relay died or stalled), and the SENDING range is full of
      // entries that purge has not removed yet: looking costs more than the rest of the
      // claim, and a round trip each time under light load, when claims hold one or two rows.
      // Look at most every expiredCheckMs (at most a quarter of the lease), first.
      const now = Date.now();
      const lookNow = now - this.expiredCheckedAt >= this.expiredCheckMs;
      const expired = lookNow ? await this.expired(manager, batch, now) : [];
      const due =
        expired.length < batch
          ? ((await manager.query(CLAIM_DUE_NEW_SQL, [
              batch - expired.length,
            ])) as ClaimedRowRecord[])
          : [];
      // Rows past the byte budget stay as they are (only locked until this commits): one claim
      // is one produce request, which must stay under the broker's batch limit.
      const {
        taken: candidates,
        leftOut,
        bytes,
      } = takeWithinBytes([...expired, ...due].map(toClaimedRow), this.options.maxBatchBytes);
      if (candidates.length === 0) return null;
      this.bytesPerRow = bytes / candidates.length;

      const plan = planBatch(
        candidates,
        await this.earlierUnsent(manager, candidates),
        this.options,
      );
      await this.hold(manager, plan.held);
      if (plan.sendable.length === 0) return null;
      const token = randomUUID();
      const leasedAt = Date.now();
      await OutboxState.lease(
        manager,
        plan.sendable.map((r) => r.id),
        { owner: this.owner, token, leaseMs: this.options.leaseMs },
      );
      const full = plan.sendable.length >= batch || leftOut > 0;
      return { token, leasedAt, rows: plan.sendable, full };
    });
  }

  private async expired(
    manager: EntityManager,
    limit: number,
    now: number,
  ): Promise<ClaimedRowRecord[]> {
    this.expiredCheckedAt = now;
    return (await manager.query(CLAIM_EXPIRED_SQL, [limit])) as ClaimedRowRecord[];
  }

  /** Unsent rows of the candidates' aggregates, with lower versions, outside this claim. */
  private async earlierUnsent(
    manager: EntityManager,
    candidates: ClaimedRow[],
  ): Promise<EarlierUnsent[]> {
    // A first event (version 1) has nothing before it: most batches skip this query.
    const later = candidates.filter((r) => r.aggregateVersion > 1);
    if (later.length === 0) return [];
    const statuses =
      this.options.deadPolicy === 'block' ? ['NEW', 'SENDING', 'DEAD'] : ['NEW', 'SENDING'];
    const refs = new Set(later.map(aggregateRef));
    const records = (await manager.query(
      `SELECT aggregate_type, aggregate_id, aggregate_version, status,
         CASE WHEN status = 'NEW'
           THEN TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(3), next_retry_at) DIV 1000
           ELSE 0 END AS due_in_ms
       FROM t_outbox
       WHERE aggregate_type IN (?) AND aggregate_id IN (?) AND aggregate_version < ?
         AND status IN (?) AND id NOT IN (?)`,
      [
        [...new Set(later.map((r) => r.aggregateType))],
        [...new Set(later.map((r) => r.aggregateId))],
        Math.max(...later.map((r) => r.aggregateVersion)),
        statuses,
        candidates.map((r) => r.id),
      ],
    )) as EarlierRecord[];
    return records
      .map((r) => ({
        aggregateType: r.aggregate_type,
        aggregateId: r.aggregate_id,
        aggregateVersion: Number(r.aggregate_version),
        dueInMs: Number(r.due_in_ms ?? 0),
        dead: r.status === 'DEAD',
      }))
      .filter((r) => refs.has(aggregateRef(r)));
  }

  /** Puts held rows back as NEW, due again when their blocker may have cleared. */
  private async hold(
    manager: EntityManager,
    held: Array<{ row: ClaimedRow; retryInMs: number }>,
  ): Promise<void> {
    const byDelay = new Map<number, string[]>();
    for (const { row, retryInMs } of held) {
      byDelay.set(retryInMs, [...(byDelay.get(retryInMs) ?? []), row.id]);
    }
    for (const [retryInMs, ids] of byDelay) await OutboxState.backToNew(manager, ids, retryInMs);
  }
}
