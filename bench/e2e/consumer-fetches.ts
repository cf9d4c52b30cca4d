import { sampleValue } from '../../test/e2e/prometheus-text';

/**
 * Fetch requests the inbox consumers of named services sent between `start()` and `read()`,
 * from each service's `inbox_fetch_requests_total` (GET /metrics, operator token): what the
 * consumers' fetch wait costs in requests, counted by the client, the same on every broker.
 */
export class FetchMeter {
  private before: Record<string, number> = {};

  constructor(
    /** Service name → base URL. */
    private readonly services: Record<string, string>,
    private readonly opsApiToken: string,
  ) {}

  async start(): Promise<void> {
    this.before = await this.counts();
  }

  /** Fetch requests each service's consumer sent since `start()`. */
  async read(): Promise<Record<string, number>> {
    const now = await this.counts();
    return Object.fromEntries(
      Object.entries(now).map(([name, count]) => [name, count - this.before[name]]),
    );
  }

  private async counts(): Promise<Record<string, number>> {
    const entries = await Promise.all(
      Object.entries(this.services).map(async ([name, url]) => {
        const response = await fetch(`${url}/metrics`, {
          headers: { authorization: `Bearer ${this.opsApiToken}` },
        });
        if (response.status !== 200)
          throw new Error(`${name} /metrics answered ${response.status}`);
        const value = sampleValue(await response.text(), 'inbox_fetch_requests_total');
        if (value === undefined)
          throw new Error(`${name} /metrics has no inbox_fetch_requests_total`);
        return [name, value] as const;
      }),
    );
    return Object.fromEntries(entries);
  }
}
