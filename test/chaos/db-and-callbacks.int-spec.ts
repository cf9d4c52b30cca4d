import { Connection, createConnection } from 'mysql2/promise';
import { waitFor } from '@outbox-inbox/test-kit';
import { requestJson } from '../../scripts/demo/http-json';
import { MYSQL_URL, PayingOrder, TradingStack } from '../support/trading-stack';
import {
  bookingWaitsFor,
  expectedLedgerBalances,
  killConnectionsFor,
  ledgerBalances,
  openOrdersRetrying,
} from './support/db-faults';

/**
 * Chaos scenarios 9 to 12 (issue 6) against the four services as real processes: hot ledger
 * rows held locked (lock-wait timeouts and a real deadlock in the accounting service), the
 * services' database connections killed under load with a pool of two, hostile pay
 * callbacks, and a coupon provider that commits grants and drops its replies. Every test ends
 * with the chain settled and the invariant checker clean.
 */

/** Seconds a row-lock wait lasts in the accounting service before it fails with 1205. */
const ACCOUNTING_LOCK_WAIT_S = 1;
/** Scenario 10's tiny pool; the other scenarios run on it too. */
const POOL = { DB_POOL_SIZE: '2' };
/** A relay whose connection died mid-claim leaves rows SENDING until its lease runs out. */
const RELAY = {
  OUTBOX_LEASE_MS: '6000',
  OUTBOX_REQUEST_TIMEOUT_MS: '1000',
  OUTBOX_PRODUCER_RETRIES: '2',
};

let stack: TradingStack;
/** Orders paid so far in this file: `settled` and the balances count all of them. */
let paidOrders = 0;

beforeAll(async () => {
  stack = await TradingStack.start({
    env: {
      'order-service': { ...POOL, ...RELAY },
      'fulfillment-service': { ...POOL, ...RELAY, FULFILLMENT_MAX_ATTEMPTS: '60' }, // scenario 12 drops every reply for a while
      'accounting-service': { ...POOL, DB_LOCK_WAIT_TIMEOUT_S: String(ACCOUNTING_LOCK_WAIT_S) },
      'coupon-provider': POOL,
    },
  });
});

afterAll(async () => {
  await stack?.query('', `DROP DATABASE IF EXISTS \`${stack.prefix}ballast\``);
  await stack?.stop();
});

async function payAndSettle(orders: PayingOrder[]): Promise<void> {
  expect(new Set(await stack.pay(orders))).toEqual(new Set([200]));
  paidOrders += orders.length;
  await stack.settled(paidOrders);
}

async function expectInvariantsHold(): Promise<void> {
  const report = await stack.invariants();
  expect(report.violations).toEqual([]);
  // Settled by retries alone: no event parked for good, dead-lettered, or left DEAD.
  expect(report.observations).toMatchObject({
    paidOrders,
    deadOutboxRows: [],
    parkedEvents: [],
    deadLetteredEvents: [],
  });
}

/** Lines a service (any for '') logged, since line `since` of the stack's log, matching `pattern`. */
function logged(service: string, pattern: RegExp, since = 0): string[] {
  return stack.logs
    .slice(since)
    .filter((line) => line.startsWith(`[${service}`) && pattern.test(line));
}

/** A connection of the test's own to a service's database (a stuck batch job, an operator). */
function connect(database: string): Promise<Connection> {
  return createConnection({ uri: `${MYSQL_URL}/${stack.prefix}${database}` });
}

describe('scenario 9: lock-wait timeouts and deadlocks on hot ledger accounts', () => {
  it('retries bookings whole through lock-wait timeouts and a deadlock; balances stay exact', async () => {
    // Every order is in EUR: all bookings move the same four t_account rows.
    await payAndSettle(await stack.openOrders(2));
    const logMark = stack.logs.length;
    const journals = () =>
      stack.count(
        'accounting_service',
        "SELECT COUNT(*) AS n FROM t_journal WHERE kind = 'PAYMENT'",
      );

    // A test transaction holds every hot account row while ten callbacks are booked.
    const holder = await connect('accounting_service');
    try {
      await holder.query('START TRANSACTION');
      const [locked] = await holder.query(
        "SELECT code FROM t_account WHERE currency = 'EUR' ORDER BY code FOR UPDATE",
      );
      expect((locked as unknown[]).length).toBe(4);
      const orders = await stack.openOrders(10);
      expect(new Set(await stack.pay(orders))).toEqual(new Set([200]));
      paidOrders += orders.length;
      // Held for several lock-wait timeouts: each failed attempt is logged, then retried.
      await waitFor(
        () =>
          logged('accounting-service', /attempt \d+ failed \(ER_LOCK_WAIT_TIMEOUT\)/, logMark)
            .length >= 3,
        { timeoutMs: 30_000, description: 'three lock-wait timeouts in the accounting service' },
      );
      expect(await journals()).toBe(2); // nothing got past the held rows
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    await stack.settled(paidOrders);
    expect(await journals()).toBe(paidOrders);

    // A deadlock: the test locks 4000 then 1100, a booking locks 1100 then 4000. The test's
    // transaction has written many rows (ballast), so InnoDB rolls the booking back (1213).
    await stack.query('', `CREATE DATABASE IF NOT EXISTS \`${stack.prefix}ballast\``);
    await stack.query(
      '',
      `CREATE TABLE IF NOT EXISTS \`${stack.prefix}ballast\`.t_ballast (id INT PRIMARY KEY)`,
    );
    const victims = await waitFor(
      async () => {
        const [order] = await stack.openOrders(1);
        const eventKey = `OrderPaid:${order.id}:3`;
        const closer = await connect('accounting_service');
        try {
          await closer.query('START TRANSACTION');
          await closer.query(
            `INSERT INTO \`${stack.prefix}ballast\`.t_ballast (id)
             SELECT seq FROM seq_1_to_500`,
          );
          await closer.query(
            "SELECT code FROM t_account WHERE code = '4000' AND currency = 'EUR' FOR UPDATE",
          );
          expect(await stack.pay([order])).toEqual([200]);
          paidOrders += 1;
          await waitFor(() => bookingWaitsFor(stack, '4000'), {
            intervalMs: 5,
            timeoutMs: 5_000, // well inside the inbox's retry budget for one event
            description: 'the booking waits for account 4000, holding 1100',
          });
          await closer.query(
            "SELECT code FROM t_account WHERE code = '1100' AND currency = 'EUR' FOR UPDATE",
          );
        } finally {
          await closer.query('ROLLBACK');
          await closer.end();
        }
        await waitFor(
          async () =>
            (await stack.count(
              'accounting_service',
              'SELECT COUNT(*) AS n FROM t_journal WHERE source_event_key = ?',
              [eventKey],
            )) === 1,
          { description: `${eventKey} booked after the deadlock` },
        );
        // The booking may have been between two attempts when the test closed the cycle; then
        // no deadlock happened and another order tries again.
        const lines = logged(
          'accounting-service',
          new RegExp(`${eventKey} attempt \\d+ failed \\(ER_LOCK_DEADLOCK\\)`),
        );
        return lines.length > 0 && lines;
      },
      { timeoutMs: 40_000, description: 'a booking chosen as a deadlock victim' },
    );
    expect(victims.length).toBeGreaterThan(0);

    await stack.settled(paidOrders);
    expect(await expectedLedgerBalances(stack)).toEqual({
      paidOrders,
      balances: await ledgerBalances(stack),
    });
    await expectInvariantsHold();
  }, 150_000); // waitFor bounds each wait and names what did not happen
});

describe('scenario 10: connections killed mid-transaction and mid-commit, a pool of two', () => {
  it('pays, fulfils and books every order once while the services lose their connections', async () => {
    const ORDERS = 30;
    const before = await stack.query<{ id: string }>('order_service', 'SELECT id FROM t_order');
    const load = (async () => {
      const orders = await openOrdersRetrying(stack, ORDERS);
      expect(new Set(await stack.pay(orders))).toEqual(new Set([200]));
      return orders;
    })();
    const logMark = stack.logs.length;
    const [orders, killed] = await Promise.all([load, killConnectionsFor(stack, 4_000)]);
    paidOrders += ORDERS;
    expect(killed).toBeGreaterThan(10);

    await stack.settled(paidOrders);
    const known = new Set(before.map((r) => String(r.id)));
    const created = await stack.query<{ id: string; status: string }>(
      'order_service',
      'SELECT id, status FROM t_order',
    );
    const fresh = created.filter((r) => !known.has(String(r.id)));
    expect(fresh.map((r) => [String(r.id), r.status]).sort()).toEqual(
      orders.map((o) => [o.id, 'PAID']).sort(),
    );
    const paidEvents = await stack.query<{ aggregate_id: string }>(
      'order_service',
      "SELECT aggregate_id FROM t_outbox WHERE event_type = 'OrderPaid' AND aggregate_id IN (?)",
      [orders.map((o) => o.id)],
    );
    expect(paidEvents.map((r) => r.aggregate_id).sort()).toEqual(orders.map((o) => o.id).sort());
    const fulfilled = await stack.query<{ order_id: string }>(
      'fulfillment_service',
      "SELECT order_id FROM t_fulfillment WHERE status = 'DONE' AND order_id IN (?)",
      [orders.map((o) => o.id)],
    );
    expect(fulfilled.map((r) => r.order_id).sort()).toEqual(orders.map((o) => o.id).sort());
    const booked = await stack.query<{ order_id: string }>(
      'accounting_service',
      "SELECT order_id FROM t_journal WHERE kind = 'PAYMENT' AND order_id IN (?)",
      [orders.map((o) => o.id)],
    );
    expect(booked.map((r) => r.order_id).sort()).toEqual(orders.map((o) => o.id).sort());
    for (const service of ['order-service', 'fulfillment-service', 'accounting-service'] as const) {
      expect(stack.stack.services[service].running).toBe(true);
    }
    // Both consumers lost connections inside their transactions and retried them whole.
    for (const consumer of ['fulfillment-service', 'accounting-service']) {
      const losses = logged(consumer, /attempt \d+ failed \(PROTOCOL_CONNECTION_LOST\)/, logMark);
      expect(losses.length).toBeGreaterThan(0);
    }
    expect(await expectedLedgerBalances(stack)).toEqual({
      paidOrders,
      balances: await ledgerBalances(stack),
    });
    await expectInvariantsHold();
  }, 150_000); // waitFor bounds each wait and names what did not happen
});

/** What a rejected callback must leave as it was: the order row, the outbox, the notifications. */
async function paymentState(orderId: string): Promise<unknown> {
  const [order] = await stack.query('order_service', 'SELECT * FROM t_order WHERE id = ?', [
    orderId,
  ]);
  const events = await stack.query(
    'order_service',
    'SELECT id, event_type, aggregate_version FROM t_outbox ORDER BY id',
  );
  const notifications = await stack.query(
    'order_service',
    'SELECT notify_id, order_id FROM t_pay_notification ORDER BY notify_id',
  );
  return { order, events, notifications };
}

describe('scenario 11: pay callbacks against the running order-service', () => {
  it('turns 20 identical concurrent copies into one transition, all 200 with the same answer', async () => {
    const [order] = await stack.openOrders(1);
    const body = JSON.stringify(stack.provider.notification(order));
    const answers = await Promise.all(Array.from({ length: 20 }, () => stack.provider.send(body)));
    expect(answers).toEqual(
      Array(20).fill({
        status: 200,
        body: {
          result: 'SUCCESS',
          orderId: order.id,
          payOrderId: order.payOrderId,
          orderStatus: 'PAID',
        },
      }),
    );
    const [row] = await stack.query(
      'order_service',
      'SELECT status, version FROM t_order WHERE id = ?',
      [order.id],
    );
    expect(row).toEqual({ status: 'PAID', version: 3 });
    const events = await stack.query<{ event_type: string }>(
      'order_service',
      'SELECT event_type FROM t_outbox WHERE aggregate_id = ? ORDER BY aggregate_version',
      [order.id],
    );
    expect(events.map((e) => e.event_type)).toEqual([
      'OrderCreated',
      'OrderPaymentStarted',
      'OrderPaid',
    ]);
    expect(
      await stack.count(
        'order_service',
        'SELECT COUNT(*) AS n FROM t_pay_notification WHERE order_id = ?',
        [order.id],
      ),
    ).toBe(1);
    paidOrders += 1;
    await stack.settled(paidOrders);
    await expectInvariantsHold();
  });

  it('answers each forged, stale, mismatched, oversized or malformed callback with a 4xx and changes nothing', async () => {
    const [order, other] = await stack.openOrders(2);
    const provider = stack.provider;
    const otherNotification = provider.notification(other);
    expect(await provider.deliver(otherNotification)).toBe(200);
    const valid = provider.notification(order);
    const signed = JSON.stringify(valid);
    const oneByteOff = signed.replace(`"amount":${order.amount}`, `"amount":${order.amount + 1}`);
    expect([oneByteOff.length, oneByteOff === signed]).toEqual([signed.length, false]);
    const now = Math.floor(Date.now() / 1000);
    const json = (overrides: Record<string, unknown>) => JSON.stringify({ ...valid, ...overrides });
    const mistyped: Record<string, unknown> = { ...valid, amount: String(order.amount), extra: 1 };
    delete mistyped.paidAt;

    const before = await paymentState(order.id);
    const cases: Array<[string, () => Promise<{ status: number }>, number]> = [
      ['stale timestamp', () => provider.send(signed, { timestamp: now - 301 }), 401],
      ['timestamp ahead', () => provider.send(signed, { timestamp: now + 301 }), 401],
      ['body changed by one byte', () => provider.send(oneByteOff, { signedBody: signed }), 401],
      ['another secret', () => provider.send(signed, { secret: 'x'.repeat(32) }), 401],
      [
        'no signature',
        () => requestJson(`${stack.url('order-service')}/payments/callback`, { rawBody: signed }),
        401,
      ],
      ['wrong amount', () => provider.send(json({ amount: order.amount + 1 })), 422],
      ['wrong currency', () => provider.send(json({ currency: 'USD' })), 422],
      [
        "another order's payOrderId",
        () => provider.send(json({ payOrderId: other.payOrderId })),
        404,
      ],
      ['unknown order', () => provider.send(json({ orderId: '999999999' })), 404],
      [
        'a processed notifyId naming another payment',
        () => provider.send(json({ notifyId: otherNotification.notifyId })),
        422,
      ],
      ['oversized (> 16 kB)', () => provider.send(json({ pad: 'x'.repeat(17_000) })), 413],
      ['truncated JSON', () => provider.send(signed.slice(0, -7)), 400],
      ['not an object', () => provider.send('[]'), 400],
      ['empty', () => provider.send(''), 400],
      ['missing, extra and mistyped fields', () => provider.send(JSON.stringify(mistyped)), 400],
    ];
    const answered: Array<[string, number]> = [];
    for (const [name, send] of cases) answered.push([name, (await send()).status]);
    expect(answered).toEqual(cases.map(([name, , status]) => [name, status]));
    expect(await paymentState(order.id)).toEqual(before);

    // Still payable: the rejections left the order as they found it.
    expect(await provider.deliver(valid)).toBe(200);
    paidOrders += 2;
    await stack.settled(paidOrders);
    await expectInvariantsHold();
  });
});

describe('scenario 12: the coupon provider commits a grant and drops its reply', () => {
  const faults = (settings: { dropReplyRate: number }) =>
    requestJson<{ droppedReplies: number }>(`${stack.url('coupon-provider')}/faults`, {
      headers: stack.opsHeaders,
      method: 'PUT',
      body: settings,
    });

  it('retries with the same key and gets the same coupon, one per key', async () => {
    const orders = await stack.openOrders(4);
    const ids = orders.map((o) => o.id);
    expect((await faults({ dropReplyRate: 1 })).status).toBe(200);
    try {
      expect(new Set(await stack.pay(orders))).toEqual(new Set([200]));
      paidOrders += orders.length;
      // Each fulfillment asked at least twice, was told nothing, and is not DONE.
      const pending = await waitFor(
        async () => {
          const rows = await stack.query<{ status: string; attempts: number; grant_key: string }>(
            'fulfillment_service',
            'SELECT status, attempts, grant_key FROM t_fulfillment WHERE order_id IN (?)',
            [ids],
          );
          return rows.length === orders.length && rows.every((r) => r.attempts >= 2) && rows;
        },
        { description: 'every fulfillment retried while replies are dropped' },
      );
      expect(pending.filter((r) => r.status === 'DONE')).toEqual([]);
      // ...while the provider committed each grant once, on the first request.
      const keys = pending.map((r) => r.grant_key);
      expect(
        await stack.count(
          'coupon_provider',
          'SELECT COUNT(*) AS n FROM t_coupon WHERE idempotency_key IN (?)',
          [keys],
        ),
      ).toBe(orders.length);
    } finally {
      await faults({ dropReplyRate: 0 });
    }

    await stack.settled(paidOrders);
    const fulfillments = await stack.query<{
      grant_key: string;
      coupon_code: string;
      status: string;
    }>(
      'fulfillment_service',
      'SELECT grant_key, coupon_code, status FROM t_fulfillment WHERE order_id IN (?) ORDER BY grant_key',
      [ids],
    );
    expect(new Set(fulfillments.map((f) => f.status))).toEqual(new Set(['DONE']));
    const keys = fulfillments.map((f) => f.grant_key);
    const coupons = await stack.query<{ idempotency_key: string; coupon_code: string }>(
      'coupon_provider',
      'SELECT idempotency_key, coupon_code FROM t_coupon WHERE idempotency_key IN (?) ORDER BY idempotency_key',
      [keys],
    );
    const remembered = await stack.query<{
      idempotency_key: string;
      coupon_code: string;
      requests: number;
    }>(
      'coupon_provider',
      `SELECT idempotency_key, coupon_code, requests FROM t_coupon_idempotency
        WHERE idempotency_key IN (?) ORDER BY idempotency_key`,
      [keys],
    );
    const granted = fulfillments.map((f) => ({
      idempotency_key: f.grant_key,
      coupon_code: f.coupon_code,
    }));
    expect(coupons).toEqual(granted);
    expect(
      remembered.map(({ idempotency_key, coupon_code }) => ({ idempotency_key, coupon_code })),
    ).toEqual(granted);
    expect(remembered.filter((r) => r.requests < 2)).toEqual([]);
    await expectInvariantsHold();
  });
});
