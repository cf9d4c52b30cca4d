import { ClaimedRow } from './outbox-row';

/** Rows one relay holds exclusively until `leaseMs` passes; finalizing needs `token`. */
export interface Claim {
  token: string;
  /** Just before the lease was written (epoch ms): the lease ends no earlier than this + `leaseMs`. */
  leasedAt: number;
  /** In send order: by aggregate, then version. */
  rows: ClaimedRow[];
  /** More rows may be due: as many were sendable as the claim asked for, or `maxBatchBytes` was reached. */
  full: boolean;
}

/**
 * Where the relay takes its batches from (OutboxClaimer, on MySQL/MariaDB or PostgreSQL). A claim leases due
 * rows under a token of its own: no row is in two live claims, and no later version of an
 * aggregate is claimed while an earlier one is unsent (or DEAD, with deadPolicy 'block').
 */
export interface OutboxClaims {
  /** The next batch, leased; null when nothing is due. */
  claim(): Promise<Claim | null>;
  /** Tokens of this claimer's leases that have not expired yet (handed back on stop). */
  liveLeaseTokens(): string[];
}

/**
 * Where the relay records what became of a claim (OutboxFinalizer, on either engine). Every
 * method changes only rows still leased under `token` and answers how many rows it changed:
 * fewer than asked means another relay took them over after the lease expired.
 */
export interface OutboxOutcomes {
  markSent(ids: string[], token: string): Promise<number>;
  /** A failed attempt: back to NEW after a backoff, or DEAD after `maxAttempts` attempts. */
  markFailed(rows: ClaimedRow[], token: string, reason: string): Promise<number>;
  /** DEAD with `reason`; `attempted` counts this as a failed attempt in retry_count. */
  markDead(ids: string[], token: string, reason: string, attempted?: boolean): Promise<number>;
  /** Extends the lease of rows still SENDING under `token` to `leaseMs` from now. */
  extendLease(ids: string[], token: string, leaseMs: number): Promise<number>;
  /** Hands rows back unsent (NEW, due now or after `delayMs`), keeping their retry count. */
  release(ids: string[], token: string, delayMs?: number): Promise<number>;
  /** Every row still SENDING under one of `tokens` goes back to NEW, due now. */
  releaseLeases(tokens: string[]): Promise<number>;
}
