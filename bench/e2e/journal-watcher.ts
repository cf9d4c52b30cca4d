import { Pool } from 'mysql2/promise';

/**
 * Watches the accounting database for PAYMENT journals and notes, per order id, when each
 * was first seen committed (performance.now() of this process). It polls every `intervalMs`
 * and rereads a window of recent ids, so a journal whose id committed after a higher one is
 * still seen. A seen time is an upper bound: booked at most one interval (plus a query) earlier.
 */
export class JournalWatcher {
  readonly seenAt = new Map<string, number>();
  private maxId = 0;
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
      "SELECT id, order_id FROM t_journal WHERE kind = 'PAYMENT' AND id > ? ORDER BY id",
      [Math.max(0, this.maxId - 500)],
    );
    const now = performance.now();
    for (const row of rows as Array<{ id: number | string; order_id: string }>) {
      this.maxId = Math.max(this.maxId, Number(row.id));
      if (!this.seenAt.has(row.order_id)) this.seenAt.set(row.order_id, now);
    }
  }
}
