import { randomBytes, randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';
import { waitFor } from '@app/testing';
import { mapConcurrently, requestJson } from '../../scripts/demo/http-json';
import { SimulatedPayProvider } from '../../scripts/demo/pay-provider';
import { serviceMain } from '../../scripts/stack/service-process';
import { Stack, startStack } from '../../scripts/stack/start-stack';
import { freePort } from './free-port';

const ORDERS = 30;
const ROOT = join(__dirname, '..', '..');

/** Runs `npm run ops -- ...args` as an operator would; resolves with exit code and stdout. */
async function ops(...args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['-r', '@swc-node/register', join(ROOT, 'scripts/ops.ts'), ...args],
      { cwd: ROOT },
    );
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}
const MYSQL_URL = (process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/+$/, '');

async function query<T>(database: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const connection = await createConnection({ uri: `${MYSQL_URL}/${database}` });
  try {
    const [rows] = await connection.query(sql, params);
    return rows as T[];
  } finally {
    await connection.end();
  }
}

/**
 * The whole chain as four real processes (built bundles, the same commands as the Docker
 * images) over real HTTP, the real database and the Kafka-protocol broker.
 */
describe('trading chain, end to end', () => {
  let stack: Stack;
  let prefix: string;
  const logs: string[] = [];

  beforeAll(async () => {
    for (const name of [
      'order-service',
      'fulfillment-service',
      'accounting-service',
      'coupon-provider',
    ] as const) {
      if (!existsSync(serviceMain(name)))
        throw new Error(`${serviceMain(name)} is missing: run "npm run build"`);
    }
    prefix = `e2e_${randomBytes(3).toString('hex')}_`;
    stack = await startStack({
      databasePrefix: prefix,
      topicPrefix: `${prefix.replace(/_/g, '.')}`,
      ports: {
        'order-service': await freePort(),
        'fulfillment-service': await freePort(),
        'accounting-service': await freePort(),
        'coupon-provider': await freePort(),
      },
      env: {
        'fulfillment-service': {
          FULFILLMENT_RETRY_BASE_MS: '50',
          FULFILLMENT_RETRY_MAX_MS: '300',
          FULFILLMENT_RETRY_POLL_MS: '50',
          COUPON_PROVIDER_TIMEOUT_MS: '1000',
        },
      },
      log: (line) => logs.push(line),
    });
  });

  afterAll(async () => {
    await stack?.stop();
    for (const db of [
      'order_service',
      'fulfillment_service',
      'accounting_service',
      'coupon_provider',
    ]) {
      await query('', `DROP DATABASE IF EXISTS \`${prefix}${db}\``).catch(() => undefined);
    }
  });

  it('pays, fulfils and books every order exactly once through duplicates, lost replies and consumer restarts', async () => {
    const url = (name: keyof Stack['services']) => stack.services[name].url;
    const provider = new SimulatedPayProvider(url('order-service'), stack.payCallbackSecret);
    await requestJson(`${url('coupon-provider')}/faults`, {
      method: 'PUT',
      body: { dropReplyRate: 0.3 },
    });

    const orders = await mapConcurrently(
      Array.from({ length: ORDERS }, (_, i) => i),
      6,
      async (i) => {
        const created = await requestJson<{ id: string }>(`${url('order-service')}/orders`, {
          body: { userId: `u${i}`, amount: 500 + i, currency: 'EUR' },
          headers: { 'idempotency-key': randomUUID() },
        });
        expect(created.status).toBe(201);
        const paying = await requestJson<{
          id: string;
          payOrderId: string;
          amount: number;
          currency: string;
        }>(`${url('order-service')}/orders/${created.body.id}/pay`, { method: 'POST' });
        expect(paying.status).toBe(200);
        return paying.body;
      },
    );

    // Each notification three times: two copies at once, one more later.
    const notifications = orders.map((o) => provider.notification(o));
    const statuses = await Promise.all(
      notifications.flatMap((n) => [provider.deliver(n), provider.deliver(n)]),
    );
    expect(new Set(statuses)).toEqual(new Set([200]));

    // Consumers restart mid-run: fulfillment crashes (SIGKILL), accounting stops gracefully.
    await waitFor(async () => {
      const [row] = await query<{ n: number }>(
        `${prefix}fulfillment_service`,
        'SELECT COUNT(*) AS n FROM t_fulfillment',
      );
      return Number(row.n) > 0;
    });
    await stack.services['fulfillment-service'].stop('SIGKILL');
    await stack.services['accounting-service'].stop('SIGTERM');
    const late = await Promise.all(notifications.map((n) => provider.deliver(n)));
    expect(new Set(late)).toEqual(new Set([200]));
    stack.services['fulfillment-service'].start();
    stack.services['accounting-service'].start();
    await stack.services['fulfillment-service'].waitHealthy();
    await stack.services['accounting-service'].waitHealthy();

    await waitFor(
      async () => {
        const report = await requestJson<{ paymentJournals: number; clean: boolean }>(
          `${url('accounting-service')}/ledger/reconciliation`,
        );
        const done = await query<{ n: number }>(
          `${prefix}fulfillment_service`,
          "SELECT COUNT(*) AS n FROM t_fulfillment WHERE status = 'DONE'",
        );
        return report.body.paymentJournals === ORDERS && Number(done[0].n) === ORDERS;
      },
      { timeoutMs: 90_000, description: `${ORDERS} fulfillments done and payment journals booked` },
    );

    const paid = await query<{ id: string }>(
      `${prefix}order_service`,
      "SELECT id FROM t_order WHERE status = 'PAID'",
    );
    expect(paid.map((r) => String(r.id)).sort()).toEqual(orders.map((o) => o.id).sort());
    const paidEvents = await query<{ aggregate_id: string }>(
      `${prefix}order_service`,
      "SELECT aggregate_id FROM t_outbox WHERE event_type = 'OrderPaid'",
    );
    expect(paidEvents.map((r) => r.aggregate_id).sort()).toEqual(orders.map((o) => o.id).sort());

    const fulfillments = await query<{ order_id: string; status: string }>(
      `${prefix}fulfillment_service`,
      'SELECT order_id, status FROM t_fulfillment',
    );
    expect(fulfillments).toHaveLength(ORDERS);
    expect(new Set(fulfillments.map((f) => f.status))).toEqual(new Set(['DONE']));

    const grants = await requestJson<{
      grants: number;
      keysWithSeveralGrants: number;
      perKey: unknown[];
    }>(`${url('coupon-provider')}/coupons/grants/stats`);
    expect(grants.body).toMatchObject({ grants: ORDERS, keysWithSeveralGrants: 0 });
    expect(grants.body.perKey).toHaveLength(ORDERS);

    const report = await requestJson<{
      clean: boolean;
      paidOrders: number;
      paymentJournals: number;
      mismatches: unknown[];
    }>(`${url('accounting-service')}/ledger/reconciliation`);
    expect(report.body).toMatchObject({
      clean: true,
      paidOrders: ORDERS,
      paymentJournals: ORDERS,
      mismatches: [],
    });
    await waitFor(
      async () => {
        const journals = await query<{ n: number }>(
          `${prefix}accounting_service`,
          'SELECT COUNT(*) AS n FROM t_journal',
        );
        return Number(journals[0].n) === 2 * ORDERS; // one payment and one coupon grant per order
      },
      { description: 'payment and coupon journals booked once each' },
    );
    const unbalanced = await query<{ journal_id: string }>(
      `${prefix}accounting_service`,
      'SELECT journal_id FROM t_journal_line GROUP BY journal_id HAVING SUM(debit) <> SUM(credit)',
    );
    expect(unbalanced).toEqual([]);

    // The operator's view agrees: nothing dead-lettered, nothing DEAD, nothing parked.
    for (const service of ['fulfillment-service', 'accounting-service'] as const) {
      const list = await ops('dlq:list', '--service', url(service));
      expect(list).toEqual({ code: 0, stdout: expect.any(String) });
      expect(JSON.parse(list.stdout)).toEqual([]);
      const stats = JSON.parse((await ops('inbox:stats', '--service', url(service))).stdout);
      expect(stats).toMatchObject({ parkedNow: 0, openGaps: [] });
    }
    for (const service of ['order-service', 'fulfillment-service'] as const) {
      await waitFor(
        async () => {
          const stats = JSON.parse((await ops('outbox:stats', '--service', url(service))).stdout);
          return stats.backlog.NEW === 0 && stats.backlog.SENDING === 0 && stats.dead === 0;
        },
        { description: `${service}'s outbox fully sent, nothing DEAD` },
      );
    }
    expect(await ops('dlq:replay', '--service', url('accounting-service'))).toMatchObject({
      code: 64,
    });
  });
});
