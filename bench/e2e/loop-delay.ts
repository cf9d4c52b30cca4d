import { IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { sampleValue } from '../../test/e2e/prometheus-text';

/** Event-loop delay over a window, ms: how late a 10 ms timer fired. */
export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
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
        return [name, { p50: ms('p50'), p99: ms('p99'), max: ms('max') }] as const;
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
