import { OutboxOutcomes } from '../store/outbox-store.port';

/** What a LeaseKeeper needs to know about the relay's timing. */
export interface LeaseTiming {
  leaseMs: number;
  /** One produce request's timeout: a request sent later than lease end − this may land after it. */
  requestTimeoutMs: number;
  /**
   * The longest a send may hold its rows. A send still in flight then is abandoned (`onLost`)
   * and the lease, no longer extended, lapses for another relay: a send stuck for good does
   * not hold its rows for good.
   */
  maxSendMs: number;
}

/**
 * Keeps a claim's lease alive while its send is in flight, so no other relay takes the rows
 * over however long kafkajs retries, reconnects or refreshes metadata: a lease older than
 * a beat (a third of `leaseMs`) is extended right before the send (a lease already lost means
 * the send is abandoned before it is written); then the lease is extended a beat after it was
 * taken or last extended, and every beat from then on. When the lease is lost (another relay took
 * the rows) or cannot be extended in time (the database is unreachable), `onLost` runs while
 * the lease still covers one request timeout, so the sender can abandon the send before a
 * request could land after the lease ended.
 */
export class LeaseKeeper {
  private timer?: NodeJS.Timeout;
  private firstBeat?: NodeJS.Timeout;
  private extendedAt = 0;
  private startedAt = 0;
  private lostReason?: string;

  constructor(
    private readonly finalizer: Pick<OutboxOutcomes, 'extendLease'>,
    private readonly ids: string[],
    private readonly token: string,
    private readonly timing: LeaseTiming,
    private readonly onLost: (reason: string) => void,
  ) {}

  /** Why the lease was lost; undefined while it is held. */
  get lost(): string | undefined {
    return this.lostReason;
  }

  /**
   * Extends the lease once, unless it was taken (`leasedAt`, epoch ms) less than a beat ago;
   * false (and `lost` set) when the rows are no longer all held. A lease that young is as good
   * as one just extended: only an expired lease is taken over, and its token is the claim's
   * own, so it cannot have been lost; its first extension comes a beat after it was taken.
   * That spares a write of every row per batch.
   */
  async start(leasedAt = 0): Promise<boolean> {
    this.startedAt = Date.now();
    const every = Math.max(10, Math.floor(this.timing.leaseMs / 3));
    if (this.startedAt - leasedAt < every) {
      this.extendedAt = leasedAt;
    } else {
      await this.extend();
      if (this.lostReason) return false;
    }
    this.firstBeat = setTimeout(
      () => {
        this.firstBeat = undefined;
        if (this.lostReason) return;
        this.timer = setInterval(() => void this.beat(), every);
        void this.beat();
      },
      Math.max(0, this.extendedAt + every - Date.now()),
    );
    return true;
  }

  stop(): void {
    clearTimeout(this.firstBeat);
    clearInterval(this.timer);
    this.firstBeat = undefined;
    this.timer = undefined;
  }

  private async beat(): Promise<void> {
    if (Date.now() - this.startedAt > this.timing.maxSendMs) {
      // Abandoned while the lease extended at the last beat still runs for 2/3 of leaseMs.
      this.lose(`the send outlived its bound of ${this.timing.maxSendMs} ms`);
      return;
    }
    try {
      await this.extend();
    } catch (error) {
      // Not extended: give up while the lease still covers a request already on the wire.
      const deadline = this.extendedAt + this.timing.leaseMs - this.timing.requestTimeoutMs;
      if (Date.now() >= deadline - Math.floor(this.timing.leaseMs / 3)) {
        this.lose(`the lease could not be extended: ${(error as Error)?.message ?? error}`);
      }
    }
  }

  private async extend(): Promise<void> {
    if (this.lostReason) return;
    const startedAt = Date.now();
    const held = await this.finalizer.extendLease(this.ids, this.token, this.timing.leaseMs);
    if (held < this.ids.length) {
      this.lose(`${this.ids.length - held} row(s) were taken over by another relay`);
      return;
    }
    this.extendedAt = startedAt;
  }

  private lose(reason: string): void {
    if (this.lostReason) return;
    this.lostReason = reason;
    this.stop();
    this.onLost(reason);
  }
}
