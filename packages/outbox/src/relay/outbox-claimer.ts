import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { rowsToAsk, takeWithinBytes } from './batch-bytes';
import { EarlierUnsent, planBatch } from './batch-order';
import { aggregateRef, ClaimedRow, ClaimedRowRecord, toClaimedRow } from '../store/outbox-row';
import { OutboxRelayOptions } from './outbox-relay.options';
import { OutboxStatus } from '../store/outbox-status';
import { OutboxState, SqlRunner } from '../store/outbox-state';
import { Claim, OutboxClaims } from '../store/outbox-store.port';
import { OutboxQuery, OutboxSql } from '../store/sql/outbox-sql';
import { outboxSqlOf } from '../store/sql/outbox-sql-of';

export type { Claim } from '../store/outbox-store.port';

/** Longest time between two looks for expired leases while full batches keep coming. */
export const EXPIRED_CHECK_MS = 1_000;

/** A row of the one-statement claim: the claim's columns, when it was due, what precedes it. */
interface LeasedRecord extends ClaimedRowRecord {
  due_at: Date | string;
  earlier: Array<Pick<EarlierRecord, 'aggregate_version' | 'status' | 'due_in_ms'>> | null;
}

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
 * token unique to this claim. On MySQL/MariaDB or PostgreSQL: the statements are the
 * DataSource's engine's (OutboxSql). Where the engine has claimAndLeaseDueNew (PostgreSQL),
 * claims between two looks for expired leases lock, lease and check the order in one
 * statement, and hand back what the check holds under the claim's token.
 */
export class OutboxClaimer implements OutboxClaims {
  private expiredCheckedAt = 0;
  /** Average message bytes of the rows the last claim took; 0 before the first. */
  private bytesPerRow = 0;
  private readonly expiredCheckMs: number;
  /** Tokens of this claimer's leases that may still hold rows, with when each was taken. */
  private readonly leases = new Map<string, number>();
  private readonly sql: OutboxSql;
  private readonly state: OutboxState;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: ClaimOptions,
    private readonly owner: string,
  ) {
    this.expiredCheckMs = Math.min(EXPIRED_CHECK_MS, options.leaseMs / 4);
    this.sql = outboxSqlOf(dataSource);
    this.state = new OutboxState(dataSource);
  }

  async claim(): Promise<Claim | null> {
    // Expired leases are rare (a relay died or stalled), and the SENDING range is full of
    // entries that purge has not removed yet: looking costs more than the rest of the claim,
    // and a round trip each time under light load, when claims hold one or two rows. Look at
    // most every expiredCheckMs (at most a quarter of the lease), first, in a transaction;
    // between looks, where the engine can, claim and lease in one statement.
    const startedAt = Date.now();
    const lookNow = startedAt - this.expiredCheckedAt >= this.expiredCheckMs;
    if (lookNow) this.expiredCheckedAt = startedAt;
    const claim =
      !lookNow && this.sql.claimAndLeaseDueNew
        ? await this.claimInOneStatement()
        : await this.claimInTransaction(lookNow);
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

  private claimInTransaction(lookNow: boolean): Promise<Claim | null> {
    return this.dataSource.transaction('READ COMMITTED', async (manager) => {
      const batch = rowsToAsk(this.options, this.bytesPerRow);
      const expired = lookNow
        ? await this.read<ClaimedRowRecord>(manager, this.sql.claimExpired(batch))
        : [];
      const due =
        expired.length < batch
          ? await this.read<ClaimedRowRecord>(manager, this.sql.claimDueNew(batch - expired.length))
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
      await this.state.lease(
        manager,
        plan.sendable.map((r) => r.id),
        { owner: this.owner, token, leaseMs: this.options.leaseMs },
      );
      const full = plan.sendable.length >= batch || leftOut > 0;
      return { token, leasedAt, rows: plan.sendable, full };
    });
  }

  /**
   * Due NEW rows leased by one statement in autocommit (claimAndLeaseDueNew), which also
   * answers what precedes each. What the transaction would have left alone (rows past the
   * byte budget) or put back (rows held behind an earlier version) is handed back under the
   * claim's token afterwards: the rows are leased until then, so no other claim takes them
   * meanwhile, and a relay that dies in between leaves them to the lease's expiry.
   */
  private async claimInOneStatement(): Promise<Claim | null> {
    const batch = rowsToAsk(this.options, this.bytesPerRow);
    const token = randomUUID();
    const leasedAt = Date.now();
    const lease = { owner: this.owner, token, leaseMs: this.options.leaseMs };
    const records = await this.read<LeasedRecord>(
      this.dataSource,
      this.sql.claimAndLeaseDueNew!(batch, lease, this.blockingStatuses()),
    );
    if (records.length === 0) return null;
    // Until the hand-back below is done, shutdown must release these rows too.
    this.leases.set(token, leasedAt);
    records.sort(byDueThenId);
    const rows = records.map(toClaimedRow);
    const { taken, leftOut, bytes } = takeWithinBytes(rows, this.options.maxBatchBytes);
    this.bytesPerRow = bytes / taken.length;
    const left = rows.slice(taken.length);
    // A row left out is unsent and outside the claim, as it is to the transaction's check.
    const earlier: EarlierUnsent[] = left.map((r) => ({ ...r, dueInMs: 0, dead: false }));
    for (const [i, record] of records.slice(0, taken.length).entries()) {
      for (const e of record.earlier ?? []) {
        earlier.push({
          aggregateType: taken[i].aggregateType,
          aggregateId: taken[i].aggregateId,
          aggregateVersion: Number(e.aggregate_version),
          dueInMs: Number(e.due_in_ms ?? 0),
          dead: e.status === 'DEAD',
        });
      }
    }
    const plan = planBatch(taken, earlier, this.options);
    await this.state.backToNew(
      this.dataSource,
      left.map((r) => r.id),
      0,
      token,
    );
    await this.hold(this.dataSource, plan.held, token);
    if (plan.sendable.length === 0) return null;
    const full = plan.sendable.length >= batch || leftOut > 0;
    return { token, leasedAt, rows: plan.sendable, full };
  }

  /** NEW and SENDING rows hold later versions back; DEAD ones too with deadPolicy 'block'. */
  private blockingStatuses(): OutboxStatus[] {
    return this.options.deadPolicy === 'block' ? ['NEW', 'SENDING', 'DEAD'] : ['NEW', 'SENDING'];
  }

  /** Unsent rows of the candidates' aggregates, with lower versions, outside this claim. */
  private async earlierUnsent(
    manager: EntityManager,
    candidates: ClaimedRow[],
  ): Promise<EarlierUnsent[]> {
    // A first event (version 1) has nothing before it: most batches skip this query.
    const later = candidates.filter((r) => r.aggregateVersion > 1);
    if (later.length === 0) return [];
    const statuses = this.blockingStatuses();
    const refs = new Set(later.map(aggregateRef));
    const records = await this.read<EarlierRecord>(
      manager,
      this.sql.earlierUnsent({
        aggregateTypes: [...new Set(later.map((r) => r.aggregateType))],
        aggregateIds: [...new Set(later.map((r) => r.aggregateId))],
        belowVersion: Math.max(...later.map((r) => r.aggregateVersion)),
        statuses,
        excludingIds: candidates.map((r) => r.id),
      }),
    );
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

  /**
   * Puts held rows back as NEW, due again when their blocker may have cleared: rows the
   * claim's transaction has locked, or, given `token`, rows leased under it.
   */
  private async hold(
    db: SqlRunner,
    held: Array<{ row: ClaimedRow; retryInMs: number }>,
    token?: string,
  ): Promise<void> {
    const byDelay = new Map<number, string[]>();
    for (const { row, retryInMs } of held) {
      byDelay.set(retryInMs, [...(byDelay.get(retryInMs) ?? []), row.id]);
    }
    for (const [retryInMs, ids] of byDelay) {
      await this.state.backToNew(db, ids, retryInMs, token);
    }
  }

  private async read<R>(db: SqlRunner, { sql, params }: OutboxQuery): Promise<R[]> {
    return (await db.query(sql, params)) as R[];
  }
}

/** The claim's order: as claimDueNew reads them, by due time, then id. */
function byDueThenId(a: LeasedRecord, b: LeasedRecord): number {
  const due = new Date(a.due_at).getTime() - new Date(b.due_at).getTime();
  if (due !== 0) return due;
  const [x, y] = [BigInt(a.id), BigInt(b.id)];
  return x < y ? -1 : x > y ? 1 : 0;
}
