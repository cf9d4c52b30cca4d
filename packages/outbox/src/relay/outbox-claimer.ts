import { randomUUID } from 'node:crypto';
import {
  SqlDialect,
  sqlDialectOf,
  Statement,
  transactionCommittingWith,
} from '@outbox-inbox/database';
import { DataSource } from 'typeorm';
import { rowsToAsk, takeWithinBytes } from './batch-bytes';
import { EarlierUnsent, planBatch } from './batch-order';
import { aggregateRef, ClaimedRow, ClaimedRowRecord, toClaimedRow } from '../store/outbox-row';
import { OutboxRelayOptions } from './outbox-relay.options';
import { OutboxStatus } from '../store/outbox-status';
import { OutboxState, SqlRunner } from '../store/outbox-state';
import { Claim, OutboxClaims } from '../store/outbox-store.port';
import { OutboxLease, OutboxQuery, OutboxSql } from '../store/sql/outbox-sql';
import { outboxSqlOf } from '../store/sql/outbox-sql-of';

export type { Claim } from '../store/outbox-store.port';

/** Longest time between two looks for expired leases while full batches keep coming. */
export const EXPIRED_CHECK_MS = 1_000;

/** A row of the one-statement lease: the claim's columns, when it was due, what precedes it. */
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

/** What a claim's lease step leased (in the claim's order) and the unsent rows before them. */
interface Leased {
  rows: ClaimedRow[];
  earlier: EarlierUnsent[];
}

/**
 * Claims a batch with one algorithm on every engine: lease due candidates (locked with
 * FOR UPDATE SKIP LOCKED) under a token unique to this claim, together with the unsent rows of
 * their aggregates below them outside the claim; then keep what fits the byte budget and would
 * not overtake an earlier unsent version (so N+1 never overtakes N, across relays too), and hand
 * the rest back under the claim's token. The rows stay leased until then, so no other claim
 * takes them meanwhile, and a relay that dies in between leaves them to the lease's expiry.
 *
 * How the lease is taken is the engine's (its dialect's `claimStyle`, its OutboxSql's
 * statements): one statement in autocommit where the engine has one (PostgreSQL:
 * `claimAndLeaseDueNew`), else a short READ COMMITTED transaction that locks, reads what precedes
 * the candidates and leases them: two round trips on MySQL and MariaDB (the isolation level and
 * START TRANSACTION with the locking SELECT, the read and the lease with the COMMIT), the
 * minimal SKIP LOCKED relay's count. The look for expired leases always takes the transaction.
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
  private style?: SqlDialect['claimStyle'];

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: ClaimOptions,
    private readonly owner: string,
  ) {
    this.expiredCheckMs = Math.min(EXPIRED_CHECK_MS, options.leaseMs / 4);
    this.sql = outboxSqlOf(dataSource);
    this.state = new OutboxState(dataSource);
  }

  /**
   * How this engine takes a lease, asked of its dialect on the first claim: wiring the claimer
   * loads no driver (the dialect's module does; the DataSource loads it when it opens).
   */
  private get claimStyle(): SqlDialect['claimStyle'] {
    if (!this.style) {
      this.style = sqlDialectOf(this.dataSource).claimStyle;
      if (this.style === 'one-statement' && !this.sql.claimAndLeaseDueNew) {
        throw new Error(`OutboxSql of ${this.sql.engine} has no claimAndLeaseDueNew`);
      }
    }
    return this.style;
  }

  async claim(): Promise<Claim | null> {
    // Expired leases are rare (a relay died or stalled), and the SENDING range is full of
    // entries that purge has not removed yet: looking costs more than the rest of the claim,
    // and a round trip each time under light load, when claims hold one or two rows. Look at
    // most every expiredCheckMs (at most a quarter of the lease), first, in the transaction.
    const startedAt = Date.now();
    const lookNow = startedAt - this.expiredCheckedAt >= this.expiredCheckMs;
    if (lookNow) this.expiredCheckedAt = startedAt;
    const batch = rowsToAsk(this.options, this.bytesPerRow);
    const lease = { owner: this.owner, token: randomUUID(), leaseMs: this.options.leaseMs };
    const leasedAt = Date.now();
    const leased =
      lookNow || this.claimStyle === 'transaction'
        ? await this.leaseInTransaction(batch, lease, lookNow)
        : await this.leaseInOneStatement(batch, lease);
    this.forgetExpiredLeases();
    if (leased.rows.length === 0) return null;
    // Until the hand-back below is done, shutdown must release these rows too.
    this.leases.set(lease.token, leasedAt);

    const { taken, leftOut, bytes } = takeWithinBytes(leased.rows, this.options.maxBatchBytes);
    this.bytesPerRow = bytes / taken.length;
    // Rows past the byte budget go back: one claim is one produce request, which must stay
    // under the broker's batch limit. Each is unsent and outside the claim to the order check.
    const left = leased.rows.slice(taken.length);
    const earlier = [...leased.earlier, ...left.map((r) => ({ ...r, dueInMs: 0, dead: false }))];
    const plan = planBatch(taken, earlier, this.options);
    await this.state.backToNew(
      this.dataSource,
      left.map((r) => r.id),
      0,
      lease.token,
    );
    await this.hold(plan.held, lease.token);
    if (plan.sendable.length === 0) return null;
    const full = plan.sendable.length >= batch || leftOut > 0;
    return { token: lease.token, leasedAt, rows: plan.sendable, full };
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

  private forgetExpiredLeases(): void {
    const now = Date.now();
    for (const [token, leasedAt] of this.leases) {
      if (leasedAt + this.options.leaseMs < now) this.leases.delete(token);
    }
  }

  /**
   * The lease in a READ COMMITTED transaction: lock expired leases (when `lookNow`) and due NEW
   * rows, then read the unsent rows before them, lease them all and commit, these three in one
   * round trip where the engine allows (MySQL, MariaDB: with the deferred START TRANSACTION, a
   * claim is two round trips). The read of what precedes the candidates needs their ids, so it
   * cannot travel with the locking SELECT; it runs after the lock, as before.
   */
  private leaseInTransaction(batch: number, lease: OutboxLease, lookNow: boolean): Promise<Leased> {
    return transactionCommittingWith(this.dataSource, 'READ COMMITTED', async (transaction) => {
      const expired = lookNow
        ? await this.read<ClaimedRowRecord>(transaction, this.sql.claimExpired(batch))
        : [];
      const due =
        expired.length < batch
          ? await this.read<ClaimedRowRecord>(
              transaction,
              this.sql.claimDueNew(batch - expired.length),
            )
          : [];
      const rows = [...expired, ...due].map(toClaimedRow);
      if (rows.length === 0) return { rows, earlier: [] };
      const ids = rows.map((r) => r.id);
      const earlier = this.earlierUnsent(rows);
      if (!earlier) {
        await transaction.commitWith([this.state.lease(ids, lease)]);
        return { rows, earlier: [] };
      }
      const [found] = await transaction.commitWith([earlier, this.state.lease(ids, lease)]);
      return { rows, earlier: found };
    });
  }

  /**
   * The lease in one statement in autocommit (claimAndLeaseDueNew), which also answers what
   * precedes each row. Its rows come unordered: sorted here into the claim's order.
   */
  private async leaseInOneStatement(batch: number, lease: OutboxLease): Promise<Leased> {
    const records = await this.read<LeasedRecord>(
      this.dataSource,
      this.sql.claimAndLeaseDueNew!(batch, lease, this.blockingStatuses()),
    );
    records.sort(byDueThenId);
    const rows = records.map(toClaimedRow);
    const earlier = records.flatMap((record, i) =>
      (record.earlier ?? []).map((e) => ({
        aggregateType: rows[i].aggregateType,
        aggregateId: rows[i].aggregateId,
        aggregateVersion: Number(e.aggregate_version),
        dueInMs: Number(e.due_in_ms ?? 0),
        dead: e.status === 'DEAD',
      })),
    );
    return { rows, earlier };
  }

  /** NEW and SENDING rows hold later versions back; DEAD ones too with deadPolicy 'block'. */
  private blockingStatuses(): OutboxStatus[] {
    return this.options.deadPolicy === 'block' ? ['NEW', 'SENDING', 'DEAD'] : ['NEW', 'SENDING'];
  }

  /**
   * The read of the unsent rows of the candidates' aggregates, with lower versions, outside this
   * claim; none when every candidate is a first event (version 1), as in most batches.
   */
  private earlierUnsent(candidates: ClaimedRow[]): Statement<EarlierUnsent[]> | undefined {
    const later = candidates.filter((r) => r.aggregateVersion > 1);
    if (later.length === 0) return undefined;
    const statuses = this.blockingStatuses();
    const refs = new Set(later.map(aggregateRef));
    const query = this.sql.earlierUnsent({
      aggregateTypes: [...new Set(later.map((r) => r.aggregateType))],
      aggregateIds: [...new Set(later.map((r) => r.aggregateId))],
      belowVersion: Math.max(...later.map((r) => r.aggregateVersion)),
      statuses,
      excludingIds: candidates.map((r) => r.id),
    });
    const read = (records: unknown) =>
      (records as EarlierRecord[])
        .map((r) => ({
          aggregateType: r.aggregate_type,
          aggregateId: r.aggregate_id,
          aggregateVersion: Number(r.aggregate_version),
          dueInMs: Number(r.due_in_ms ?? 0),
          dead: r.status === 'DEAD',
        }))
        .filter((r) => refs.has(aggregateRef(r)));
    return { ...query, read };
  }

  /** Puts held rows leased under `token` back as NEW, due again when their blocker may have cleared. */
  private async hold(
    held: Array<{ row: ClaimedRow; retryInMs: number }>,
    token: string,
  ): Promise<void> {
    const byDelay = new Map<number, string[]>();
    for (const { row, retryInMs } of held) {
      byDelay.set(retryInMs, [...(byDelay.get(retryInMs) ?? []), row.id]);
    }
    for (const [retryInMs, ids] of byDelay) {
      await this.state.backToNew(this.dataSource, ids, retryInMs, token);
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
