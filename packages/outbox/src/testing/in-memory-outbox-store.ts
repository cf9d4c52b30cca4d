import { randomUUID } from 'node:crypto';
import { eventKeyOf } from '@outbox-inbox/messaging';
import { rowsToAsk, takeWithinBytes } from '../relay/batch-bytes';
import { EarlierUnsent, planBatch } from '../relay/batch-order';
import { OutboxError } from '../outbox.errors';
import { DeadRowFilter, PruneOptions } from '../operations/outbox-operations';
import { aggregateRef, ClaimedRow } from '../store/outbox-row';
import { Claim, OutboxClaims, OutboxOutcomes } from '../store/outbox-store.port';
import { decideRetry } from '../relay/retry-decision';
import {
  OutboxClaimTuning,
  OutboxOutcomeTuning,
  OutboxRowState,
  OutboxStoreUnderTest,
  OutboxTestEvent,
} from './outbox-store.fixture';

type Status = OutboxRowState['status'];

interface Row extends ClaimedRow {
  status: Status;
  /** When a NEW row is due, a SENDING row's lease ends, or a SENT/DEAD row's outcome came. */
  nextRetryAt: number;
  leaseToken: string | null;
  leaseOwner: string | null;
  lastError: string | null;
  sentAt: number | null;
}

/**
 * The in-memory twin of t_outbox: the writer's idempotent insert, the relay's claims and
 * outcomes (OutboxClaims, OutboxOutcomes), the operators' requeue and retention, with the
 * rules of the SQL store (lease tokens, per-aggregate order, retry and DEAD). For fast tests
 * of the relay; it passes runOutboxStoreContract, without fault features.
 */
export class InMemoryOutboxStore implements OutboxStoreUnderTest {
  private readonly table: Row[] = [];
  private nextId = 1;

  async add(
    events: Array<OutboxTestEvent & { payload?: string; headers?: Record<string, string> }>,
  ): Promise<void> {
    for (const event of events) {
      const eventType = `${event.aggregateType}Noted`;
      const eventKey = eventKeyOf(eventType, event.aggregateId, event.aggregateVersion);
      const taken = this.table.find(
        (r) =>
          r.aggregateType === event.aggregateType &&
          r.aggregateId === event.aggregateId &&
          r.aggregateVersion === event.aggregateVersion,
      );
      if (taken?.eventKey === eventKey) continue;
      if (taken) throw new OutboxError('OUTBOX_VERSION_TAKEN', `${eventKey}: version taken`);
      this.table.push({
        id: String(this.nextId++),
        aggregateType: event.aggregateType,
        aggregateId: event.aggregateId,
        aggregateVersion: event.aggregateVersion,
        eventType,
        eventKey,
        payload: event.payload ?? JSON.stringify({ eventKey }),
        headers: event.headers ?? { 'event-key': eventKey, 'event-type': eventType },
        retryCount: 0,
        status: 'NEW',
        nextRetryAt: Date.now(),
        leaseToken: null,
        leaseOwner: null,
        lastError: null,
        sentAt: null,
      });
    }
  }

  claims(tuning: OutboxClaimTuning, owner: string): OutboxClaims {
    return new InMemoryClaims(this, tuning, owner);
  }

  outcomes(tuning: OutboxOutcomeTuning): OutboxOutcomes {
    return new InMemoryOutcomes(this, tuning);
  }

  async requeueDead(filter: DeadRowFilter): Promise<number> {
    const matches = (r: Row) =>
      r.status === 'DEAD' &&
      (!filter.ids?.length || filter.ids.includes(r.id)) &&
      (!filter.eventType || r.eventType === filter.eventType) &&
      (!filter.aggregateType || r.aggregateType === filter.aggregateType) &&
      (!filter.aggregateId || r.aggregateId === filter.aggregateId);
    if (
      !filter.ids?.length &&
      !filter.eventType &&
      !filter.aggregateType &&
      !filter.aggregateId &&
      filter.all !== true
    ) {
      throw new OutboxError('OUTBOX_INVALID_FILTER', 'requeueDead needs a filter or all: true');
    }
    const dead = this.table.filter(matches);
    const now = Date.now();
    for (const row of dead)
      Object.assign(row, {
        status: 'NEW',
        retryCount: 0,
        nextRetryAt: now,
        leaseToken: null,
        leaseOwner: null,
      });
    const aggregates = new Set(dead.map(aggregateRef));
    for (const row of this.table) {
      if (aggregates.has(aggregateRef(row)) && row.status === 'NEW' && row.retryCount === 0)
        row.nextRetryAt = now;
    }
    return dead.length;
  }

  async pruneSent(options: PruneOptions): Promise<number> {
    const chunkSize = options.chunkSize ?? 1_000;
    const maxChunks = options.maxChunks ?? 1_000;
    const before = Date.now() - options.olderThanMs;
    let deleted = 0;
    for (let chunk = 0; chunk < maxChunks; chunk++) {
      const old = this.table
        .filter((r) => r.status === 'SENT' && r.sentAt! < before)
        .sort((a, b) => a.nextRetryAt - b.nextRetryAt)
        .slice(0, chunkSize);
      for (const row of old) this.table.splice(this.table.indexOf(row), 1);
      deleted += old.length;
      if (old.length < chunkSize) break;
    }
    return deleted;
  }

  async rows(): Promise<OutboxRowState[]> {
    return this.table
      .map(({ id, eventKey, aggregateId, aggregateVersion, status, retryCount }) => ({
        id,
        eventKey,
        aggregateId,
        aggregateVersion,
        status,
        retryCount,
      }))
      .sort((a, b) => Number(a.id) - Number(b.id));
  }

  async close(): Promise<void> {}

  /** The rows the claims and outcomes of this store work on. */
  get all(): Row[] {
    return this.table;
  }
}

class InMemoryClaims implements OutboxClaims {
  private bytesPerRow = 0;
  private readonly leases = new Map<string, number>();

  constructor(
    private readonly store: InMemoryOutboxStore,
    private readonly tuning: OutboxClaimTuning,
    private readonly owner: string,
  ) {}

  async claim(): Promise<Claim | null> {
    const now = Date.now();
    const batch = rowsToAsk(this.tuning, this.bytesPerRow);
    const byDue = (a: Row, b: Row) => a.nextRetryAt - b.nextRetryAt || Number(a.id) - Number(b.id);
    const rows = this.store.all;
    const expired = rows
      .filter((r) => r.status === 'SENDING' && r.nextRetryAt <= now)
      .sort(byDue)
      .slice(0, batch);
    const due = rows
      .filter((r) => r.status === 'NEW' && r.nextRetryAt <= now)
      .sort(byDue)
      .slice(0, batch - expired.length);
    const {
      taken: candidates,
      leftOut,
      bytes,
    } = takeWithinBytes([...expired, ...due], this.tuning.maxBatchBytes);
    if (candidates.length === 0) return null;
    this.bytesPerRow = bytes / candidates.length;
    const plan = planBatch(candidates, this.earlierUnsent(candidates, now), this.tuning);
    for (const { row, retryInMs } of plan.held) {
      Object.assign(row, {
        status: 'NEW',
        leaseToken: null,
        leaseOwner: null,
        nextRetryAt: now + retryInMs,
      });
    }
    if (plan.sendable.length === 0) return null;
    const token = randomUUID();
    for (const row of plan.sendable) {
      Object.assign(row, {
        status: 'SENDING',
        leaseToken: token,
        leaseOwner: this.owner,
        nextRetryAt: now + this.tuning.leaseMs,
      });
    }
    this.leases.set(token, now);
    for (const [t, at] of this.leases) if (at + this.tuning.leaseMs < now) this.leases.delete(t);
    const claimed = plan.sendable.map((r) => ({ ...toClaimedRow(r) }));
    return { token, leasedAt: now, rows: claimed, full: claimed.length >= batch || leftOut > 0 };
  }

  liveLeaseTokens(): string[] {
    const now = Date.now();
    return [...this.leases].filter(([, at]) => at + this.tuning.leaseMs >= now).map(([t]) => t);
  }

  private earlierUnsent(candidates: Row[], now: number): EarlierUnsent[] {
    const statuses: Status[] =
      this.tuning.deadPolicy === 'block' ? ['NEW', 'SENDING', 'DEAD'] : ['NEW', 'SENDING'];
    const ids = new Set(candidates.map((r) => r.id));
    const refs = new Set(candidates.map(aggregateRef));
    return this.store.all
      .filter((r) => !ids.has(r.id) && refs.has(aggregateRef(r)) && statuses.includes(r.status))
      .filter((r) =>
        candidates.some(
          (c) => aggregateRef(c) === aggregateRef(r) && r.aggregateVersion < c.aggregateVersion,
        ),
      )
      .map((r) => ({
        aggregateType: r.aggregateType,
        aggregateId: r.aggregateId,
        aggregateVersion: r.aggregateVersion,
        dueInMs: r.status === 'NEW' ? r.nextRetryAt - now : 0,
        dead: r.status === 'DEAD',
      }));
  }
}

class InMemoryOutcomes implements OutboxOutcomes {
  constructor(
    private readonly store: InMemoryOutboxStore,
    private readonly tuning: OutboxOutcomeTuning,
  ) {}

  async markSent(ids: string[], token: string): Promise<number> {
    const now = Date.now();
    return this.update(ids, token, (r) =>
      Object.assign(r, { status: 'SENT', sentAt: now, nextRetryAt: now, lastError: null }),
    );
  }

  async markFailed(rows: ClaimedRow[], token: string, reason: string): Promise<number> {
    let changed = 0;
    for (const row of rows) {
      const decision = decideRetry(
        row.retryCount + 1,
        this.tuning.maxAttempts,
        this.tuning.backoff,
      );
      changed +=
        decision.kind === 'dead'
          ? await this.markDead([row.id], token, reason, true)
          : this.update([row.id], token, (r) =>
              Object.assign(r, {
                status: 'NEW',
                retryCount: r.retryCount + 1,
                lastError: reason,
                nextRetryAt: Date.now() + decision.delayMs,
              }),
            );
    }
    return changed;
  }

  async markDead(ids: string[], token: string, reason: string, attempted = false): Promise<number> {
    const now = Date.now();
    return this.update(ids, token, (r) =>
      Object.assign(r, {
        status: 'DEAD',
        lastError: reason,
        retryCount: r.retryCount + (attempted ? 1 : 0),
        nextRetryAt: now,
      }),
    );
  }

  async extendLease(ids: string[], token: string, leaseMs: number): Promise<number> {
    const until = Date.now() + leaseMs;
    return this.update(ids, token, (r) => (r.nextRetryAt = until), 'SENDING');
  }

  async release(ids: string[], token: string, delayMs = 0): Promise<number> {
    const due = Date.now() + delayMs;
    return this.update(ids, token, (r) => Object.assign(r, { status: 'NEW', nextRetryAt: due }));
  }

  async releaseLeases(tokens: string[]): Promise<number> {
    const now = Date.now();
    let changed = 0;
    for (const row of this.store.all) {
      if (row.status === 'SENDING' && row.leaseToken !== null && tokens.includes(row.leaseToken)) {
        Object.assign(row, { status: 'NEW', leaseToken: null, leaseOwner: null, nextRetryAt: now });
        changed += 1;
      }
    }
    return changed;
  }

  /** Applies `change` to the rows among `ids` still leased under `token`; how many it changed. */
  private update(
    ids: string[],
    token: string,
    change: (row: Row) => void,
    status?: Status,
  ): number {
    let changed = 0;
    for (const row of this.store.all) {
      if (!ids.includes(row.id) || row.leaseToken !== token) continue;
      if (status && row.status !== status) continue;
      change(row);
      if (row.status !== 'SENDING') Object.assign(row, { leaseToken: null });
      changed += 1;
    }
    return changed;
  }
}

function toClaimedRow(row: Row): ClaimedRow {
  const {
    id,
    aggregateType,
    aggregateId,
    aggregateVersion,
    eventType,
    eventKey,
    payload,
    headers,
    retryCount,
  } = row;
  return {
    id,
    aggregateType,
    aggregateId,
    aggregateVersion,
    eventType,
    eventKey,
    payload,
    headers: { ...headers },
    retryCount,
  };
}
