/**
 * A client's `connect()`, made once and shared by every caller: a failed attempt, or a
 * `reset()` when the client reports its connection lost, makes the next caller connect again.
 * Both publishers keep their producer and admin behind one, so the relay recovers by itself.
 */
export class ConnectOnce {
  private ready?: Promise<void>;

  constructor(private readonly connect: () => Promise<void>) {}

  /** Resolves once connected, connecting first when no connection is made or under way. */
  async connected(): Promise<void> {
    if (this.ready) return this.ready;
    const connecting = this.connect();
    this.ready = connecting;
    try {
      await connecting;
    } catch (error) {
      if (this.ready === connecting) this.ready = undefined;
      throw error;
    }
  }

  /** Forgets the connection: the next caller connects again. */
  reset(): void {
    this.ready = undefined;
  }
}
