import { Pool } from 'mysql2/promise';

/** How far below the highest id seen a poll still looks when a gap stays open. */
const REREAD_WINDOW = 500;

/**
 * Watches the accounting database for PAYMENT journals and notes, per order id, when each
 * was first seen committed (performance.now() of this process). It polls every `intervalMs`
 * from the lowest id it may not have seen: every id up to `contiguous` has been seen, so a
 * journal whose id committed after a higher one is still seen, and ids above a gap (an id a
 * failed insert used up never commits) are reread at most `REREAD_WINDOW` back. It reads the
 * journals of every kind, so that the coupon journals' ids do not leave gaps. A seen time is
 * an upper bound: booked at most one interval (plus a query) earlier.
 *
 * The watcher is the bench's instrument, and its CPU (and MariaDB's for its queries) is counted
 * with the load generator's: it reads only what may be new, not the last 500 rows every 10 ms.
 */
export class JournalWatcher {
  readonly seenAt = new Map<string, number>();
  private maxId = 0;
  /** Every journal id up to this one has been seen. */
  private contiguous = 0;
  /** Ids seen above `contiguous`. */
  private readonly seenAbove = new Set<number>();
  private stopped = false;
  private loop?: Promise<void>;

  constructor(
    private readonly pool: Pool,
    private readonly intervalMs = 10,
  ) {}

  start(): void {
    this.loop = (async () => {
      while (!this.stopped) {
        await this.poll();
        await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  /** Resolves when every order in `orderIds` has its journal, or rejects after `timeoutMs`. */
  async waitForAll(orderIds: string[], timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const missing = orderIds.filter((id) => !this.seenAt.has(id));
      if (missing.length === 0) return;
      if (performance.now() > deadline) {
        throw new Error(
          `${missing.length} of ${orderIds.length} payment journals not booked in ${timeoutMs} ms`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private async poll(): Promise<void> {
    const [rows] = await this.pool.query(
      'SELECT id, order_id, kind FROM t_journal WHERE id > ? ORDER BY id',
      [Math.max(this.contiguous, this.maxId - REREAD_WINDOW)],
    );
    const now = performance.now();
    for (const row of rows as Array<{ id: number | string; order_id: string; kind: string }>) {
      const id = Number(row.id);
      this.maxId = Math.max(this.maxId, id);
      if (id > this.contiguous) this.seenAbove.add(id);
      if (row.kind === 'PAYMENT' && !this.seenAt.has(row.order_id)) {
        this.seenAt.set(row.order_id, now);
      }
    }
    while (this.seenAbove.delete(this.contiguous + 1)) this.contiguous++;
  }
}
