import { IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { sampleValue } from '../../test/e2e/prometheus-text';

/** Event-loop delay over a window, ms: how late a 10 ms timer fired. */
export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
  /**
   * The process's relay over the window, where it has one: claims that took rows and their
   * mean time, start to rows in hand (`outbox_relay_claim*_total`), which splits a row's wait
   * to its send into the wake-up and the claim.
   */
  claims?: { count: number; meanMs: number };
}

/** Measures the event-loop delay of some processes between `start()` and `read()`. */
export interface LoopDelayMeter {
  start(): Promise<void>;
  read(): Promise<Record<string, LoopDelay>>;
}

/**
 * The services' event-loop delay, from prom-client's default metrics on GET /metrics
 * (`nodejs_eventloop_lag_*_seconds`, a perf_hooks.monitorEventLoopDelay histogram of 10 ms
 * resolution that each scrape reads and resets): `start()` scrapes to reset, `read()` scrapes
 * the window. Nothing else may scrape in between.
 */
export class ServiceLoopDelay implements LoopDelayMeter {
  /** The relay counters each service answered at the last scrape. */
  private readonly lastClaims = new Map<string, { count: number; seconds: number }>();

  constructor(
    /** Service name → base URL. */
    private readonly services: Record<string, string>,
    private readonly opsApiToken: string,
  ) {}

  async start(): Promise<void> {
    await this.read();
  }

  async read(): Promise<Record<string, LoopDelay>> {
    const entries = await Promise.all(
      Object.entries(this.services).map(async ([name, url]) => {
        const response = await fetch(`${url}/metrics`, {
          headers: { authorization: `Bearer ${this.opsApiToken}` },
        });
        if (response.status !== 200)
          throw new Error(`${name} /metrics answered ${response.status}`);
        const text = await response.text();
        const ms = (quantile: string) =>
          (sampleValue(text, `nodejs_eventloop_lag_${quantile}_seconds`) ?? NaN) * 1000;
        const delay: LoopDelay = { p50: ms('p50'), p99: ms('p99'), max: ms('max') };
        const count = sampleValue(text, 'outbox_relay_claims_total');
        const seconds = sampleValue(text, 'outbox_relay_claim_seconds_total');
        if (count !== undefined && seconds !== undefined) {
          const last = this.lastClaims.get(name) ?? { count: 0, seconds: 0 };
          this.lastClaims.set(name, { count, seconds });
          const claims = count - last.count;
          const meanMs = claims > 0 ? ((seconds - last.seconds) * 1000) / claims : NaN;
          delay.claims = { count: claims, meanMs };
        }
        return [name, delay] as const;
      }),
    );
    return Object.fromEntries(entries);
  }
}

/** This process's event-loop delay (the minimal chain runs in it), the same histogram as prom-client's. */
export class OwnLoopDelay implements LoopDelayMeter {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });

  constructor(private readonly name: string) {
    this.histogram.enable();
  }

  start(): Promise<void> {
    this.histogram.reset();
    return Promise.resolve();
  }

  read(): Promise<Record<string, LoopDelay>> {
    const h = this.histogram;
    return Promise.resolve({
      [this.name]: { p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 },
    });
  }

  stop(): void {
    this.histogram.disable();
  }
}
