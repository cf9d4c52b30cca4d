import { DataSource } from 'typeorm';
import { decideRetry } from './retry-decision';
import { ClaimedRow } from './outbox-row';
import { OutboxRelayOptions } from './outbox-relay.options';

interface UpdateResult {
  affectedRows: number;
}

const LAST_ERROR_MAX = 1000;

/**
 * Records the outcome of a claim. `next_retry_at` becomes the time of the outcome (SENT, DEAD)
 * or when the row is due again (NEW). Every statement matches `lease_token`, so a relay whose
 * lease expired and was taken over changes nothing: the relay that holds the lease now
 * decides the row's fate. Each method returns the number of rows it changed.
 */
export class OutboxFinalizer {
  constructor(
    private readonly dataSource: DataSource,
    private readonly options: Pick<OutboxRelayOptions, 'maxAttempts' | 'backoff'>,
  ) {}

  async markSent(ids: string[], token: string): Promise<number> {
    if (ids.length === 0) return 0;
    return this.update(
      `UPDATE t_outbox SET status = 'SENT', sent_at = UTC_TIMESTAMP(3),
         next_retry_at = UTC_TIMESTAMP(3), updated_at = UTC_TIMESTAMP(3), lease_token = NULL,
         lease_until = NULL, last_error = NULL
       WHERE id IN (?) AND lease_token = ?`,
      [ids, token],
    );
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
      changed += await this.update(
        `UPDATE t_outbox SET status = 'NEW', retry_count = retry_count + 1, last_error = ?,
           next_retry_at = DATE_ADD(UTC_TIMESTAMP(3), INTERVAL ? MICROSECOND),
           updated_at = UTC_TIMESTAMP(3), lease_token = NULL, lease_until = NULL
         WHERE id IN (?) AND lease_token = ?`,
        [clip(reason), delayMs * 1000, ids, token],
      );
    }
    return changed;
  }

  /** DEAD with `reason`; `attempted` counts this as a failed attempt in retry_count. */
  async markDead(ids: string[], token: string, reason: string, attempted = false): Promise<number> {
    if (ids.length === 0) return 0;
    return this.update(
      `UPDATE t_outbox SET status = 'DEAD', last_error = ?,
         retry_count = retry_count + ${attempted ? 1 : 0}, next_retry_at = UTC_TIMESTAMP(3),
         updated_at = UTC_TIMESTAMP(3), lease_token = NULL, lease_until = NULL
       WHERE id IN (?) AND lease_token = ?`,
      [clip(reason), ids, token],
    );
  }

  /**
   * Extends the lease of rows still leased under `token` to `leaseMs` from now (while their
   * send is in flight). Answers how many rows it still holds: fewer than asked means another
   * relay took some over after the lease expired.
   */
  async extendLease(ids: string[], token: string, leaseMs: number): Promise<number> {
    if (ids.length === 0) return 0;
    return this.update(
      `UPDATE t_outbox SET lease_until = DATE_ADD(UTC_TIMESTAMP(3), INTERVAL ? MICROSECOND),
         next_retry_at = DATE_ADD(UTC_TIMESTAMP(3), INTERVAL ? MICROSECOND)
       WHERE id IN (?) AND lease_token = ? AND status = 'SENDING'`,
      [leaseMs * 1000, leaseMs * 1000, ids, token],
    );
  }

  /** Hands rows back unsent (NEW, due now or after `delayMs`), keeping their retry count. */
  async release(ids: string[], token: string, delayMs = 0): Promise<number> {
    if (ids.length === 0) return 0;
    return this.update(
      `UPDATE t_outbox SET status = 'NEW', lease_owner = NULL, lease_token = NULL,
         lease_until = NULL, updated_at = UTC_TIMESTAMP(3),
         next_retry_at = DATE_ADD(UTC_TIMESTAMP(3), INTERVAL ? MICROSECOND)
       WHERE id IN (?) AND lease_token = ?`,
      [delayMs * 1000, ids, token],
    );
  }

  /**
   * Shutdown: every row still leased under one of `tokens` (this relay's leases) goes back to
   * NEW for another relay. By token, not by owner: two processes started with one instance id
   * would otherwise hand back each other's rows mid-send.
   */
  async releaseLeases(tokens: string[]): Promise<number> {
    if (tokens.length === 0) return 0;
    return this.update(
      `UPDATE t_outbox SET status = 'NEW', lease_owner = NULL, lease_token = NULL,
         lease_until = NULL, updated_at = UTC_TIMESTAMP(3), next_retry_at = UTC_TIMESTAMP(3)
       WHERE status = 'SENDING' AND lease_token IN (?)`,
      [tokens],
    );
  }

  private async update(sql: string, params: unknown[]): Promise<number> {
    const result = (await this.dataSource.query(sql, params)) as UpdateResult;
    return result.affectedRows;
  }
}

function clip(reason: string): string {
  return reason.length > LAST_ERROR_MAX ? `${reason.slice(0, LAST_ERROR_MAX - 1)}…` : reason;
}
