import { DataSource } from 'typeorm';
import { decideRetry } from './retry-decision';
import { ClaimedRow } from '../store/outbox-row';
import { OutboxRelayOptions } from './outbox-relay.options';
import { OutboxState } from '../store/outbox-state';
import { OutboxOutcomes } from '../store/outbox-store.port';

/**
 * Records the outcome of a claim (the statements are OutboxState's). `next_retry_at` becomes
 * the time of the outcome (SENT, DEAD) or when the row is due again (NEW). Every statement
 * matches `lease_token`, so a relay whose lease expired and was taken over changes nothing:
 * the relay that holds the lease now decides the row's fate. Each method returns the number
 * of rows it changed.
 */
export class OutboxFinalizer implements OutboxOutcomes {
  private readonly state: OutboxState;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: Pick<OutboxRelayOptions, 'maxAttempts' | 'backoff'>,
  ) {
    this.state = new OutboxState(dataSource);
  }

  markSent(ids: string[], token: string): Promise<number> {
    return this.state.markSent(this.dataSource, ids, token);
  }

  /** A failed attempt: back to NEW after a backoff, or DEAD after `maxAttempts` attempts. */
  async markFailed(rows: ClaimedRow[], token: string, reason: string): Promise<number> {
    const dead: string[] = [];
    const retryAfterMs = new Map<number, string[]>();
    for (const row of rows) {
      const decision = decideRetry(
        row.retryCount + 1,
        this.options.maxAttempts,
        this.options.backoff,
      );
      if (decision.kind === 'dead') dead.push(row.id);
      else
        retryAfterMs.set(decision.delayMs, [...(retryAfterMs.get(decision.delayMs) ?? []), row.id]);
    }
    let changed = await this.markDead(dead, token, reason, true);
    for (const [delayMs, ids] of retryAfterMs) {
      changed += await this.state.markRetry(this.dataSource, ids, token, reason, delayMs);
    }
    return changed;
  }

  /** DEAD with `reason`; `attempted` counts this as a failed attempt in retry_count. */
  markDead(ids: string[], token: string, reason: string, attempted = false): Promise<number> {
    return this.state.markDead(this.dataSource, ids, token, reason, attempted);
  }

  /**
   * Extends the lease of rows still leased under `token` to `leaseMs` from now (while their
   * send is in flight). Answers how many rows it still holds: fewer than asked means another
   * relay took some over after the lease expired.
   */
  extendLease(ids: string[], token: string, leaseMs: number): Promise<number> {
    return this.state.extendLease(this.dataSource, ids, token, leaseMs);
  }

  /** Hands rows back unsent (NEW, due now or after `delayMs`), keeping their retry count. */
  release(ids: string[], token: string, delayMs = 0): Promise<number> {
    return this.state.backToNew(this.dataSource, ids, delayMs, token);
  }

  /**
   * Shutdown: every row still leased under one of `tokens` (this relay's leases) goes back to
   * NEW for another relay. By token, not by owner: two processes started with one instance id
   * would otherwise hand back each other's rows mid-send.
   */
  releaseLeases(tokens: string[]): Promise<number> {
    return this.state.releaseLeases(this.dataSource, tokens);
  }
}
