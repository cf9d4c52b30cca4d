import { checkInvariants } from '@app/trading-checker';
import { waitFor } from '@outbox-inbox/test-kit';
import { requestJson } from '../../scripts/demo/http-json';
import { OPS_PRINCIPAL } from '../../scripts/stack/stack-kafka-access';
import { runScript } from '../support/run-script';
import { MYSQL_URL, ServiceName, TradingStack } from '../support/trading-stack';

const ORDERS = 30;

/** Runs `npm run ops -- ...args` as an operator would; resolves with exit code and stdout. */
async function ops(...args: string[]): Promise<{ code: number; stdout: string }> {
  const { code, stdout } = await runScript('scripts/ops.ts', args, {
    ...process.env,
    ...chain.stack.kafkaLoginEnv(OPS_PRINCIPAL),
    OPS_API_TOKEN: chain.stack.opsApiToken,
  });
  return { code, stdout };
}

/** Runs `npm run check:invariants` against this test's deployment, as an operator would. */
function checkInvariantsCommand(...args: string[]) {
  return runScript('scripts/check-invariants.ts', args, {
    ...process.env,
    ...chain.stack.kafkaLoginEnv(OPS_PRINCIPAL),
    MYSQL_URL,
    KAFKA_BROKERS: chain.stack.kafkaBrokers.join(','),
    DATABASE_PREFIX: chain.prefix,
    TOPIC_PREFIX: chain.stack.topicPrefix,
  });
}

/**
 * The whole chain as four real processes (built bundles, the same commands as the Docker
 * images) over real HTTP, the real database and the Kafka-protocol broker.
 */
let chain: TradingStack;

describe('trading chain, end to end', () => {
  beforeAll(async () => {
    chain = await TradingStack.start({
      // Fulfillment is killed mid-run, possibly while its relay leases FulfillmentDone rows:
      // those are claimed again when the lease runs out, so a short lease keeps the test short.
      // The lease must outlast a send with its retries (1 s × 3 here).
      env: {
        'fulfillment-service': {
          OUTBOX_LEASE_MS: '6000',
          OUTBOX_REQUEST_TIMEOUT_MS: '1000',
          OUTBOX_PRODUCER_RETRIES: '2',
        },
      },
    });
  });

  afterAll(async () => {
    await chain?.stop();
  });

  it('pays, fulfils and books every order exactly once through duplicates, lost replies and consumer restarts', async () => {
    const url = (name: ServiceName) => chain.url(name);
    const stack = chain.stack;
    const provider = chain.provider;
    await requestJson(`${url('coupon-provider')}/faults`, {
      headers: chain.opsHeaders,
      method: 'PUT',
      body: { dropReplyRate: 0.3 },
    });

    // openOrders fails unless every POST /orders answers 201 and every /pay 200.
    const orders = await chain.openOrders(ORDERS);

    // Each notification three times: two copies at once, one more later.
    const notifications = orders.map((o) => provider.notification(o));
    const statuses = await Promise.all(
      notifications.flatMap((n) => [provider.deliver(n), provider.deliver(n)]),
    );
    expect(new Set(statuses)).toEqual(new Set([200]));

    // Consumers restart mid-run: fulfillment crashes (SIGKILL), accounting stops gracefully.
    await waitFor(async () => {
      const [row] = await chain.query<{ n: number }>(
        'fulfillment_service',
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
          { headers: chain.opsHeaders },
        );
        const done = await chain.query<{ n: number }>(
          'fulfillment_service',
          "SELECT COUNT(*) AS n FROM t_fulfillment WHERE status = 'DONE'",
        );
        return report.body.paymentJournals === ORDERS && Number(done[0].n) === ORDERS;
      },
      { timeoutMs: 90_000, description: `${ORDERS} fulfillments done and payment journals booked` },
    );

    const paid = await chain.query<{ id: string }>(
      'order_service',
      "SELECT id FROM t_order WHERE status = 'PAID'",
    );
    expect(paid.map((r) => String(r.id)).sort()).toEqual(orders.map((o) => o.id).sort());
    const paidEvents = await chain.query<{ aggregate_id: string }>(
      'order_service',
      "SELECT aggregate_id FROM t_outbox WHERE event_type = 'OrderPaid'",
    );
    expect(paidEvents.map((r) => r.aggregate_id).sort()).toEqual(orders.map((o) => o.id).sort());

    const fulfillments = await chain.query<{ order_id: string; status: string }>(
      'fulfillment_service',
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
    }>(`${url('accounting-service')}/ledger/reconciliation`, { headers: chain.opsHeaders });
    expect(report.body).toMatchObject({
      clean: true,
      paidOrders: ORDERS,
      paymentJournals: ORDERS,
      mismatches: [],
    });
    await waitFor(
      async () => {
        const journals = await chain.query<{ n: number }>(
          'accounting_service',
          'SELECT COUNT(*) AS n FROM t_journal',
        );
        return Number(journals[0].n) === 2 * ORDERS; // one payment and one coupon grant per order
      },
      {
        timeoutMs: 60_000,
        description: 'payment and coupon journals booked once each (after any lease expiry)',
      },
    );
    const unbalanced = await chain.query<{ journal_id: string }>(
      'accounting_service',
      'SELECT journal_id FROM t_journal_line GROUP BY journal_id HAVING SUM(debit) <> SUM(credit)',
    );
    expect(unbalanced).toEqual([]);

    // The operator's view agrees: nothing dead-lettered, nothing DEAD, nothing parked.
    for (const service of ['fulfillment-service', 'accounting-service'] as const) {
      const list = await ops('dlq:list', '--service', url(service), '--json');
      expect(list).toEqual({ code: 0, stdout: expect.any(String) });
      expect(JSON.parse(list.stdout)).toEqual([]);
      const stats = JSON.parse(
        (await ops('inbox:stats', '--service', url(service), '--json')).stdout,
      );
      expect(stats).toMatchObject({ parkedNow: 0, openGaps: [] });
    }
    for (const service of ['order-service', 'fulfillment-service'] as const) {
      await waitFor(
        async () => {
          const stats = JSON.parse(
            (await ops('outbox:stats', '--service', url(service), '--json')).stdout,
          );
          return stats.backlog.NEW === 0 && stats.backlog.SENDING === 0 && stats.dead === 0;
        },
        { description: `${service}'s outbox fully sent, nothing DEAD` },
      );
    }
    expect(await ops('dlq:replay', '--service', url('accounting-service'))).toMatchObject({
      code: 64,
    });

    // The invariant checker, as an operator runs it against this deployment, finds every
    // promise kept; the duplicates delivered above were absorbed, not doubled.
    const checked = await checkInvariantsCommand('--quiescent');
    expect(checked.stdout).toContain('invariants hold');
    expect(checked.code).toBe(0);
    const invariants = await checkInvariants(chain.targets(), { quiescent: true });
    expect(invariants.violations).toEqual([]);
    expect(invariants.observations).toMatchObject({
      paidOrders: ORDERS,
      deadOutboxRows: [],
      parkedEvents: [],
      deadLetteredEvents: [],
    });
  });

  it('reports planted violations with their ids, and exits non-zero', async () => {
    const [paid] = await chain.query<{ id: string }>(
      'order_service',
      "SELECT id FROM t_order WHERE status = 'PAID' ORDER BY id LIMIT 1",
    );
    // A balance drifts from its lines; a second coupon under a key already used; a row claims
    // SENT for an event no topic holds; an inbox forgets an event it committed past.
    await chain.query(
      'accounting_service',
      'UPDATE t_account SET balance = balance + 1 WHERE code = (SELECT MIN(code) FROM t_journal_line)',
    );
    const [coupon] = await chain.query<{ coupon_code: string; idempotency_key: string }>(
      'coupon_provider',
      'SELECT * FROM t_coupon ORDER BY coupon_code LIMIT 1',
    );
    await chain.query(
      'coupon_provider',
      `INSERT INTO t_coupon (coupon_code, idempotency_key, user_id, order_id, value, currency, status, granted_at)
       SELECT 'PLANTED', idempotency_key, user_id, order_id, value, currency, status, granted_at
       FROM t_coupon WHERE coupon_code = ?`,
      [coupon.coupon_code],
    );
    await chain.query(
      'order_service',
      `INSERT INTO t_outbox (aggregate_type, aggregate_id, aggregate_version, event_type, event_key,
         event_id, payload, headers, status, next_retry_at, created_at, updated_at)
       VALUES ('Order', '999999', 1, 'OrderCreated', 'OrderCreated:999999:1', UUID(), '{}', '{}',
         'SENT', NOW(3), NOW(3), NOW(3))`,
    );
    await chain.query(
      'accounting_service',
      "DELETE FROM t_inbox WHERE consumer = 'accounting-service' AND event_key = ?",
      [`OrderCreated:${paid.id}:1`],
    );

    const report = await checkInvariants(chain.targets(), { quiescent: true });
    const ids = (rule: string) => report.violations.find((v) => v.rule === rule)?.ids ?? [];
    expect(new Set(report.violations.map((v) => v.rule))).toEqual(
      new Set([
        'balance-equals-journal-lines',
        'one-grant-per-idempotency-key',
        'done-fulfillment-has-one-coupon',
        'sent-event-is-in-topic',
        'every-event-accounted-for',
        'versions-applied-in-order',
        'one-coupon-per-order',
        'coupon-has-fulfillment',
        'outbox-row-matches-history',
      ]),
    );
    expect(ids('one-grant-per-idempotency-key')).toEqual([
      `${coupon.idempotency_key}: ${coupon.coupon_code}, PLANTED`,
    ]);
    expect(ids('sent-event-is-in-topic')).toEqual([
      expect.stringMatching(/^order-service outbox \d+ OrderCreated:999999:1$/),
    ]);
    expect(ids('every-event-accounted-for')).toEqual([
      `accounting-service OrderCreated:${paid.id}:1: passed the gate, no inbox row`,
    ]);
    const checked = await checkInvariantsCommand();
    expect(checked.code).toBe(1);
    expect(checked.stdout).toContain('9 invariant violations');
  });
});
