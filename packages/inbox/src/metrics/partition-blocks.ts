import { backoffDelay, BackoffPolicy } from '@outbox-inbox/database';

/** A partition paused because a dependency of its next message is down. */
export interface BlockedPartition {
  topic: string;
  partition: number;
  /** When its current block began (the first failed attempt), ISO-8601. */
  since: string;
  /** Failed rounds since then (each round is one pause). */
  rounds: number;
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
  fail(topic: string, partition: number, lastError: string): number {
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
      lastError,
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
