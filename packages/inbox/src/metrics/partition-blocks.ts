import { backoffDelay, BackoffPolicy } from '@outbox-inbox/database';

/**
 * Why a partition is paused: a dependency is down (`dependency`), the deployment lacks a
 * table, column or grant (`deployment`), or the dead-letter topic refused a message for good
 * (`deadLetterRejected`).
 */
export type BlockCause = 'dependency' | 'deployment' | 'deadLetterRejected';

/** How a failed round is recorded: its cause, what is missing, the failure's code and message. */
export interface BlockReason {
  cause: BlockCause;
  /** For a deployment fault: the missing table or column, or the refused privilege. */
  subject?: string;
  /** Code and message of the failure. */
  error: string;
}

/** A partition paused because its next message cannot be settled yet. */
export interface BlockedPartition {
  topic: string;
  partition: number;
  /** When its current block began (the first failed attempt), ISO-8601. */
  since: string;
  /** Failed rounds since then (each round is one pause). */
  rounds: number;
  /** Why it is paused, as of the last failed round. */
  cause: BlockCause;
  /** For a deployment fault: the missing table or column, or the refused privilege. */
  subject?: string;
  /** Code and message of the last failure. */
  lastError: string;
}

/**
 * The partitions paused for a transient failure, and how long to wait before each retry
 * round: capped exponential backoff with jitter, per partition, for as long as it takes. A
 * partition stops being blocked when a message of it settles again.
 */
export class PartitionBlocks {
  private readonly blocks = new Map<string, BlockedPartition & { sinceMs: number }>();

  constructor(
    private readonly backoff: BackoffPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a failed round; answers how long to keep the partition paused, in ms. */
  fail(topic: string, partition: number, reason: BlockReason): number {
    const key = `${topic}\u0000${partition}`;
    const existing = this.blocks.get(key);
    const sinceMs = existing?.sinceMs ?? this.now();
    const rounds = (existing?.rounds ?? 0) + 1;
    this.blocks.set(key, {
      topic,
      partition,
      sinceMs,
      since: new Date(sinceMs).toISOString(),
      rounds,
      cause: reason.cause,
      ...(reason.subject !== undefined && { subject: reason.subject }),
      lastError: reason.error,
    });
    return backoffDelay(this.backoff, rounds);
  }

  /** The partition made progress: it is no longer blocked. */
  clear(topic: string, partition: number): void {
    this.blocks.delete(`${topic}\u0000${partition}`);
  }

  /** Forgets every block (after a rebalance: another member may own the partitions now). */
  clearAll(): void {
    this.blocks.clear();
  }

  /** True when some partition is paused now for want of `subject` (a table, column or grant). */
  isMissing(subject: string): boolean {
    for (const block of this.blocks.values()) if (block.subject === subject) return true;
    return false;
  }

  isBlocked(topic: string, partition: number): boolean {
    return this.blocks.has(`${topic}\u0000${partition}`);
  }

  list(): BlockedPartition[] {
    return [...this.blocks.values()].map(({ sinceMs: _, ...rest }) => rest);
  }

  /** Seconds since the oldest current block began; 0 when nothing is blocked. */
  blockedSeconds(): number {
    let oldest = Infinity;
    for (const block of this.blocks.values()) oldest = Math.min(oldest, block.sinceMs);
    return oldest === Infinity ? 0 : Math.max(0, (this.now() - oldest) / 1000);
  }
}
