import { TcpProxy, waitFor } from '@app/testing';
import { sampleValue } from '../e2e/prometheus-text';
import { MYSQL_URL, TradingStack } from '../support/trading-stack';

/**
 * Operational faults heal without a person (issue 18): the consumers' database cut off for a
 * minute under load. Good events are never dead-lettered for an outage: the consumers pause
 * the partitions a dependency blocks, retry with capped backoff for as long as it takes,
 * resume, and say how long they were blocked.
 */

/** How long the outage lasts; 60 s is what the issue asks and what runs by default. */
const OUTAGE_MS = Number(process.env.OUTAGE_MS ?? 60_000);

let stack: TradingStack;
/** The database of both consumers (fulfillment and accounting) goes through this proxy. */
let consumerDb: TcpProxy;
let paidOrders = 0;

beforeAll(async () => {
  const server = new URL(MYSQL_URL);
  consumerDb = await TcpProxy.start({
    host: server.hostname,
    port: Number(server.port || 3306),
  });
  stack = await TradingStack.start({
    databaseVia: {
      'fulfillment-service': consumerDb.address,
      'accounting-service': consumerDb.address,
    },
  });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await consumerDb?.stop();
});

async function scrape(service: 'fulfillment-service' | 'accounting-service'): Promise<string> {
  const response = await fetch(`${stack.url(service)}/metrics`);
  return response.text();
}

async function blockedSeconds(service: 'fulfillment-service' | 'accounting-service') {
  return sampleValue(await scrape(service), 'inbox_blocked_seconds') ?? NaN;
}

describe("when the consumers' database is unreachable for a minute under load", () => {
  it(
    'pauses, then applies every event once when it heals: no dead letter, no manual step',
    async () => {
      paidOrders += 3;
      expect(new Set(await stack.pay(await stack.openOrders(3)))).toEqual(new Set([200]));
      await stack.settled(paidOrders);

      await consumerDb.cut();
      const cutAt = Date.now();
      // Load while the consumers are cut off: the order-service (its own database) goes on.
      const orders = await stack.openOrders(20);
      expect(new Set(await stack.pay(orders))).toEqual(new Set([200]));
      paidOrders += orders.length;
      const peak = { 'fulfillment-service': 0, 'accounting-service': 0 };
      for (const service of ['fulfillment-service', 'accounting-service'] as const) {
        peak[service] = await waitFor(
          async () => {
            const seconds = await blockedSeconds(service);
            return seconds >= 1 && seconds;
          },
          { timeoutMs: OUTAGE_MS + 30_000, description: `${service} reports being blocked` },
        );
      }
      // The outage lasts its full length, whatever the checks above took.
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, cutAt + OUTAGE_MS - Date.now())),
      );
      for (const service of ['fulfillment-service', 'accounting-service'] as const) {
        peak[service] = Math.max(peak[service], await blockedSeconds(service));
      }
      await consumerDb.heal();

      await stack.settled(paidOrders, OUTAGE_MS + 120_000);
      for (const service of ['fulfillment-service', 'accounting-service'] as const) {
        // The blocked time went up during the outage and is back to 0.
        expect(peak[service]).toBeGreaterThan(0);
        await waitFor(async () => (await blockedSeconds(service)) === 0, {
          description: `${service} no longer blocked`,
        });
        expect(sampleValue(await scrape(service), 'inbox_dead_lettered_total')).toBe(0);
        expect(sampleValue(await scrape(service), 'inbox_partition_pauses_total')).toBeGreaterThan(
          0,
        );
        expect(stack.stack.services[service].running).toBe(true);
      }
      const report = await stack.expectInvariantsHold();
      expect(report.observations).toMatchObject({
        paidOrders,
        deadOutboxRows: [],
        parkedEvents: [],
        deadLetteredEvents: [],
      });
    },
    15 * 60_000,
  ); // the outage alone is a minute; waitFor bounds each wait and names what did not happen
});
