import { setTimeout as pause } from 'node:timers/promises';

/** One answer of a /health/ready, with the brokers up when it was asked. */
export interface ReadinessSample {
  target: string;
  status: number;
  brokersUp: number;
}

/** How often each target is asked: the probe's pace, as an orchestrator's would be. */
const PROBE_INTERVAL_MS = 500;

/**
 * Asks each watched instance's /health/ready in a loop until stopped, and records every answer
 * with the number of brokers up at that moment. Instances can be watched and unwatched while
 * it runs (one killed, one that joins).
 */
export class ReadinessProbe {
  readonly samples: ReadinessSample[] = [];
  private readonly targets = new Map<string, string>();
  private running = true;
  private readonly loop: Promise<void>;

  constructor(private readonly brokersUp: () => number) {
    this.loop = this.run();
  }

  watch(target: string, baseUrl: string): void {
    this.targets.set(target, baseUrl);
  }

  unwatch(target: string): void {
    this.targets.delete(target);
  }

  /** Stops probing; resolves once the round in progress has ended. */
  async stop(): Promise<ReadinessSample[]> {
    this.running = false;
    await this.loop;
    return this.samples;
  }

  /** Answers other than 200 given while at least two brokers were up: `target status` each. */
  notReadyWithTwoBrokersUp(): string[] {
    return this.samples
      .filter((s) => s.brokersUp >= 2 && s.status !== 200)
      .map((s) => `${s.target} ${s.status} (${s.brokersUp} brokers up)`);
  }

  /** Per target, the statuses seen and how often: `{ 'order-service 200': 40 }`. */
  tally(): Record<string, number> {
    const tally: Record<string, number> = {};
    for (const s of this.samples) {
      const key = `${s.target} ${s.status}`;
      tally[key] = (tally[key] ?? 0) + 1;
    }
    return tally;
  }

  private async run(): Promise<void> {
    while (this.running) {
      await Promise.all(
        [...this.targets].map(async ([target, url]) => {
          const brokersUp = this.brokersUp();
          const status = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(5_000) })
            .then((r) => r.status)
            .catch(() => 0);
          // An instance unwatched while its answer was on the way (it was killed) is not judged.
          if (this.targets.get(target) === url)
            this.samples.push({ target, status, brokersUp: Math.min(brokersUp, this.brokersUp()) });
        }),
      );
      await pause(PROBE_INTERVAL_MS);
    }
  }
}
