/** The fault modes of the simulated provider, switchable at run time through PUT /faults. */
export interface FaultSettings {
  /** Added before every faulty-route request is handled. */
  latencyMs: number;
  /** Share of requests answered 503 before doing anything (nothing committed). */
  errorRate: number;
  /** Share of requests whose work commits and whose reply is then dropped (unknown outcome). */
  dropReplyRate: number;
  /** The next n requests fail with 503, deterministically; counts down. */
  failNextRequests: number;
  /** The next n requests commit and lose their reply, deterministically; counts down. */
  dropNextReplies: number;
}

/** What the injector has done so far. */
export interface FaultCounters {
  failedRequests: number;
  droppedReplies: number;
}

export const NO_FAULTS: FaultSettings = Object.freeze({
  latencyMs: 0,
  errorRate: 0,
  dropReplyRate: 0,
  failNextRequests: 0,
  dropNextReplies: 0,
});

/**
 * Decides, per request, whether to fail it up front or drop its reply after the commit. The
 * deterministic counters win over the rates; `random` is injectable so unit tests need none.
 */
export class FaultInjector {
  private settings: FaultSettings = { ...NO_FAULTS };
  private readonly counters: FaultCounters = { failedRequests: 0, droppedReplies: 0 };

  constructor(private readonly random: () => number = Math.random) {}

  /** Replaces the settings given (undefined ones are not given), keeps the others. */
  update(changes: Partial<FaultSettings>): FaultSettings & FaultCounters {
    const given = Object.entries(changes).filter(([, value]) => value !== undefined);
    this.settings = { ...this.settings, ...Object.fromEntries(given) };
    return this.current();
  }

  current(): FaultSettings & FaultCounters {
    return { ...this.settings, ...this.counters };
  }

  latencyMs(): number {
    return this.settings.latencyMs;
  }

  /** True when this request must fail before doing anything. */
  shouldFail(): boolean {
    if (this.settings.failNextRequests > 0) {
      this.settings.failNextRequests--;
    } else if (!(this.settings.errorRate > 0 && this.random() < this.settings.errorRate)) {
      return false;
    }
    this.counters.failedRequests++;
    return true;
  }

  /** True when this request's (committed) reply must be dropped. */
  shouldDropReply(): boolean {
    if (this.settings.dropNextReplies > 0) {
      this.settings.dropNextReplies--;
    } else if (!(this.settings.dropReplyRate > 0 && this.random() < this.settings.dropReplyRate)) {
      return false;
    }
    this.counters.droppedReplies++;
    return true;
  }
}
