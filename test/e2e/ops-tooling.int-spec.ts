import { randomUUID } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { Page } from 'playwright-core';
import { topicForAggregate } from '@app/trading-events';
import { waitFor, testKafkaConfig } from '@outbox-inbox/test-kit';
import { requestJson } from '../../scripts/demo/http-json';
import { SimulatedPayProvider } from '../../scripts/demo/pay-provider';
import { OPS_PRINCIPAL } from '../../scripts/stack/stack-kafka-access';
import { Stack } from '../../scripts/stack/start-stack';
import { launchChromium } from '../support/chromium';
import { TradingStack } from '../support/trading-stack';
import { runScript } from '../support/run-script';

// Four services, a browser and a dozen CLI processes share a small machine with other suites.
jest.setTimeout(180_000);

/** The CLI's environment: the operator token of the stack once it runs. */
let opsEnv: NodeJS.ProcessEnv = process.env;
/** Runs `npm run ops -- ...args` as a script would: a process whose stdin is not a terminal. */
const runOps = (...args: string[]) => runScript('scripts/ops.ts', args, opsEnv);

const MYSQL_URL = (process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/+$/, '');
const SERVICES = [
  'order-service',
  'fulfillment-service',
  'accounting-service',
  'coupon-provider',
] as const;

async function query<T>(database: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const connection = await createConnection({ uri: `${MYSQL_URL}/${database}` });
  try {
    const [rows] = await connection.query(sql, params);
    return rows as T[];
  } finally {
    await connection.end();
  }
}

interface Section<T> {
  status: 'ok' | 'unavailable';
  data: T;
  error?: string;
}
interface Delivery {
  eventKey: string;
  eventType: string;
  outcome: string;
  duplicateCount: number;
}
interface Timeline {
  orderId: string;
  order: { status: string };
  sections: {
    order: {
      transitions: Array<{ version: number; status: string; eventType: string; cause: string }>;
      outbox: Array<{
        eventKey: string;
        status: string;
        sentAt: string | null;
        retryCount: number;
      }>;
    };
    fulfillment: Section<{
      fulfillment: { id: string; status: string; couponCode: string };
      transitions: Array<{ status: string }>;
      outbox: Array<{ eventType: string; status: string }>;
      inbox: Delivery[];
    }>;
    coupon: Section<{ couponCode: string; status: string; value: number }>;
    accounting: Section<{
      ledger: {
        journals: Array<{ kind: string; lines: Array<{ debit: string; credit: string }> }>;
      };
      inbox: Delivery[];
    }>;
  };
  events: Array<{ at: string; lane: string; kind: string; title: string }>;
}

/**
 * The operator's tools against the four real processes: the order timeline, the ops CLI (as a
 * process) and the /ops page in headless Chromium.
 */
describe('ops tooling against the running stack', () => {
  let chain: TradingStack;
  let stack: Stack;
  let prefix: string;
  let orderId: string;
  let notifyId: string;
  let browser: ReturnType<typeof launchChromium> | undefined;
  const url = (name: (typeof SERVICES)[number] | 'ops-console') => chain.url(name);
  const timeline = async (id = orderId) =>
    requestJson<Timeline>(`${url('ops-console')}/orders/${id}/timeline`, {
      headers: chain.opsHeaders,
    });
  const openOps = async (): Promise<Page> => {
    // The page asks for the token as a browser asks for a password (Basic); any user name.
    browser ??= launchChromium({
      httpCredentials: { username: 'operator', password: stack.opsApiToken },
    });
    const page = await (await browser).context.newPage();
    await page.goto(`${url('ops-console')}/ops`);
    return page;
  };
  const healthCell = (page: Page, table: string, service: string, cell: string) =>
    page.locator(`#${table} tr[data-service="${service}"] [data-testid="${cell}"]`);

  beforeAll(async () => {
    chain = await TradingStack.start({
      opsConsole: true,
      env: { 'ops-console': { PEER_TIMEOUT_MS: '1000' } },
    });
    stack = chain.stack;
    prefix = chain.prefix;
    opsEnv = {
      ...process.env,
      ...stack.kafkaLoginEnv(OPS_PRINCIPAL),
      OPS_API_TOKEN: stack.opsApiToken,
    };

    const created = await requestJson<{ id: string }>(`${url('order-service')}/orders`, {
      body: { userId: 'u-ops', amount: 2000, currency: 'EUR' },
      headers: { 'idempotency-key': randomUUID() },
    });
    orderId = created.body.id;
    const paying = await requestJson<{
      id: string;
      payOrderId: string;
      amount: number;
      currency: string;
    }>(`${url('order-service')}/orders/${orderId}/pay`, { method: 'POST' });
    const provider = new SimulatedPayProvider(url('order-service'), stack.payCallbackSecret);
    const notification = provider.notification(paying.body);
    notifyId = notification.notifyId;
    expect(await provider.deliver(notification)).toBe(200);

    await waitFor(
      async () => {
        const { body } = await timeline();
        const f = body.sections.fulfillment;
        const a = body.sections.accounting;
        return (
          body.sections.order.outbox.every((r) => r.status === 'SENT') &&
          f.status === 'ok' &&
          f.data.fulfillment?.status === 'DONE' &&
          f.data.outbox.every((r) => r.status === 'SENT') &&
          a.status === 'ok' &&
          a.data.ledger?.journals.length === 2
        );
      },
      { timeoutMs: 60_000, description: 'order paid, fulfilled and booked' },
    );
  });

  afterAll(async () => {
    await (await browser?.catch(() => undefined))?.close();
    await chain?.stop();
  });

  it('GET /orders/:id/timeline tells the whole causal chain across the four services', async () => {
    const { status, body } = await timeline();
    expect(status).toBe(200);
    expect(body.order.status).toBe('PAID');
    const { order, fulfillment, coupon, accounting } = body.sections;
    expect(order.transitions.map((t) => [t.version, t.status, t.eventType])).toEqual([
      [1, 'CREATED', 'OrderCreated'],
      [2, 'PAYING', 'OrderPaymentStarted'],
      [3, 'PAID', 'OrderPaid'],
    ]);
    expect(order.transitions[2].cause).toBe(notifyId);
    const orderKeys = [
      `OrderCreated:${orderId}:1`,
      `OrderPaymentStarted:${orderId}:2`,
      `OrderPaid:${orderId}:3`,
    ];
    expect(order.outbox.map((r) => r.eventKey)).toEqual(orderKeys);
    expect(order.outbox.every((r) => r.sentAt !== null)).toBe(true);

    expect(fulfillment.status).toBe('ok');
    const f = fulfillment.data;
    expect(f.transitions.map((t) => t.status)).toEqual(['INIT', 'DONE']);
    const strays = await query(
      `${prefix}fulfillment_service`,
      `SELECT id FROM t_fulfillment_transition
       WHERE fulfillment_id NOT IN (SELECT id FROM t_fulfillment)`,
    );
    expect(strays).toEqual([]);
    expect(f.outbox).toEqual([
      expect.objectContaining({ eventType: 'FulfillmentDone', status: 'SENT' }),
    ]);
    expect(new Set(f.inbox.map((d) => d.eventKey))).toEqual(new Set(orderKeys));
    expect(f.inbox.every((d) => d.duplicateCount === 0)).toBe(true);

    expect(coupon).toEqual({
      status: 'ok',
      data: expect.objectContaining({
        couponCode: f.fulfillment.couponCode,
        status: 'GRANTED',
        value: 100,
      }),
    });

    expect(accounting.status).toBe('ok');
    const journals = accounting.data.ledger.journals;
    expect(journals.map((j) => j.kind).sort()).toEqual(['COUPON_GRANT', 'PAYMENT']);
    for (const j of journals) {
      const sum = (side: 'debit' | 'credit') => j.lines.reduce((s, l) => s + BigInt(l[side]), 0n);
      expect(sum('debit')).toBe(sum('credit'));
    }
    expect(accounting.data.inbox.map((d) => d.eventKey)).toEqual(
      expect.arrayContaining([
        `OrderPaid:${orderId}:3`,
        expect.stringMatching(/^FulfillmentDone:/),
      ]),
    );

    const times = body.events.map((e) => e.at);
    expect(times).toEqual([...times].sort());
    expect(new Set(body.events.map((e) => e.lane))).toEqual(new Set(SERVICES));
  });

  it('ops check:invariants finds the deployment whole, as text and as JSON', async () => {
    const deployment = [
      '--mysql-url',
      MYSQL_URL,
      '--kafka-brokers',
      stack.kafkaBrokers.join(','),
      '--database-prefix',
      prefix,
      '--topic-prefix',
      stack.topicPrefix,
      '--quiescent',
    ];
    const text = await runOps('check:invariants', ...deployment);
    expect(text).toMatchObject({ code: 0, stdout: expect.stringContaining('invariants hold') });
    const json = await runOps('check:invariants', ...deployment, '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: true,
      violations: [],
      observations: { paidOrders: 1 },
    });
    const { KAFKA_BROKERS: _unset, ...env } = process.env;
    const missing = await runScript('scripts/ops.ts', ['check:invariants'], env);
    expect(missing.code).toBe(64);
    expect(missing.stderr).toContain('needs --kafka-brokers');
  });

  it('answers 404 for an unknown order and 400 for a malformed id', async () => {
    expect((await timeline('999999999')).status).toBe(404);
    expect((await timeline('12abc')).status).toBe(400);
  });

  it('ops CLI: --help on every subcommand, clear errors with exit 64 for bad arguments', async () => {
    const root = await runOps('--help');
    expect(root.code).toBe(0);
    const subcommands = [
      'outbox:stats',
      'outbox:dead',
      'outbox:requeue',
      'inbox:stats',
      'dlq:list',
      'dlq:replay',
      'prune:outbox',
      'prune:inbox',
      'check:invariants',
    ];
    for (const name of subcommands) expect(root.stdout).toContain(name);
    const helps = await Promise.all(subcommands.map((name) => runOps(name, '--help')));
    for (const [i, help] of helps.entries()) {
      expect(help).toMatchObject({
        code: 0,
        stdout: expect.stringContaining(`ops ${subcommands[i]}`),
      });
      expect(help.stdout).toContain(i < 8 ? '--service <name|url>' : '--kafka-brokers <list>');
    }

    const service = ['--service', url('order-service')];
    const bad = await Promise.all([
      runOps('explode'),
      runOps('outbox:stats'),
      runOps('outbox:dead', ...service, '--limit', 'lots'),
      runOps('outbox:requeue', ...service),
      runOps('dlq:replay', ...service, '--message', '12'),
      runOps('prune:outbox', ...service, '--older-than', 'soon'),
      runOps('dlq:replay', ...service, '--error-code', 'EVENT_INVALID', '--yes'),
    ]);
    expect(bad.map((r) => r.code)).toEqual([64, 64, 64, 64, 64, 64, 64]);
    expect(bad.map((r) => r.stderr)).toEqual([
      expect.stringContaining("unknown command 'explode'"),
      expect.stringContaining("required option '-s, --service <name|url>' not specified"),
      expect.stringContaining('must be a number from 1 to 1000'),
      expect.stringContaining('outbox:requeue needs --id'),
      expect.stringContaining('must be PARTITION:OFFSET'),
      expect.stringContaining('must be a duration'),
      expect.stringContaining(
        'must be one of NOT_JSON, INVALID_EVENT, UNKNOWN_EVENT_TYPE, NON_RETRYABLE, RETRIES_EXHAUSTED',
      ),
    ]);
  });

  it('ops CLI: a service by name, a table by default, JSON with --json, and a clear answer where a service has no inbox or outbox', async () => {
    // Names resolve through the variables the stack and docker compose set.
    const byName = (...args: string[]) =>
      runScript('scripts/ops.ts', args, {
        ...opsEnv,
        ORDER_SERVICE_URL: url('order-service'),
        FULFILLMENT_SERVICE_URL: url('fulfillment-service'),
        ACCOUNTING_SERVICE_URL: url('accounting-service'),
      });
    const json = await byName('inbox:stats', '--service', 'fulfillment', '--json');
    expect(json.code).toBe(0);
    const stats = JSON.parse(json.stdout) as {
      inbox: { applied: number };
      sinceStart: { applied: number };
    };
    expect(stats.inbox.applied).toBeGreaterThan(0);
    const table = await byName('inbox:stats', '--service', 'fulfillment');
    expect(table.code).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/^inbox of consumer \S*fulfillment/);
    expect(lines).toContainEqual(
      expect.stringMatching(/^outcome\s+in the inbox table\s+since this process started$/),
    );
    // The same figures as the JSON, each under its label.
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`^applied\\s+${stats.inbox.applied}\\s+${stats.sinceStart.applied}$`),
      ),
    );

    const orderInbox = await byName('inbox:stats', '--service', 'order');
    expect(orderInbox).toMatchObject({
      code: 64,
      stdout: '',
      stderr: expect.stringContaining(
        'order-service has no inbox (the inbox runs in fulfillment-service, accounting-service)',
      ),
    });
    // Given as a URL, the service answers 404: the CLI says what that means.
    const accountingOutbox = await byName('outbox:stats', '--service', url('accounting-service'));
    expect(accountingOutbox).toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining(`${url('accounting-service')} has no outbox`),
    });
    expect(accountingOutbox.stderr).not.toContain('Cannot GET');
  });

  it('a DEAD row shows on /ops; ops requeue refuses without --yes, requeues with it, and both consumers absorb the redelivery', async () => {
    const db = `${prefix}order_service`;
    await query(
      db,
      `UPDATE t_outbox SET status = 'DEAD', last_error = 'poisoned by the test'
       WHERE aggregate_type = 'Order' AND aggregate_id = ? AND event_type = 'OrderPaid'`,
      [orderId],
    );
    const [row] = await query<{ id: string }>(
      db,
      `SELECT id FROM t_outbox WHERE aggregate_id = ? AND event_type = 'OrderPaid'`,
      [orderId],
    );
    const service = ['--service', url('order-service')];

    const page = await openOps();
    await expect(
      healthCell(page, 'outbox-health', 'order-service', 'outbox-dead').textContent(),
    ).resolves.toBe('1');
    expect(
      await healthCell(page, 'outbox-health', 'fulfillment-service', 'outbox-dead').textContent(),
    ).toBe('0');
    expect(
      await healthCell(page, 'outbox-health', 'order-service', 'outbox-new').textContent(),
    ).toBe('0');
    for (const consumer of ['fulfillment-service', 'accounting-service']) {
      expect(await healthCell(page, 'inbox-health', consumer, 'dlq').textContent()).toBe('0');
      expect(await healthCell(page, 'inbox-health', consumer, 'parked').textContent()).toBe('0');
    }

    const dead = await runOps('outbox:dead', ...service, '--json');
    expect(dead.code).toBe(0);
    expect(JSON.parse(dead.stdout)).toEqual([
      expect.objectContaining({
        id: String(row.id),
        eventType: 'OrderPaid',
        lastError: 'poisoned by the test',
      }),
    ]);

    const refused = await runOps('outbox:requeue', ...service, '--id', String(row.id));
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain('without --yes: stdin is not a terminal');
    const [still] = await query<{ status: string }>(
      db,
      'SELECT status FROM t_outbox WHERE id = ?',
      [row.id],
    );
    expect(still.status).toBe('DEAD');

    const requeued = await runOps(
      'outbox:requeue',
      ...service,
      '--id',
      String(row.id),
      '--yes',
      '--json',
    );
    expect(requeued.code).toBe(0);
    expect(JSON.parse(requeued.stdout)).toEqual({ requeued: 1 });

    const paidKey = `OrderPaid:${orderId}:3`;
    const duplicates = (list: Delivery[]) =>
      list.find((d) => d.eventKey === paidKey)?.duplicateCount;
    await waitFor(
      async () => {
        const { body } = await timeline();
        const { fulfillment, accounting } = body.sections;
        return (
          fulfillment.status === 'ok' &&
          duplicates(fulfillment.data.inbox) === 1 &&
          accounting.status === 'ok' &&
          duplicates(accounting.data.inbox) === 1
        );
      },
      { description: 'the requeued OrderPaid absorbed once by each consumer' },
    );
    const { body } = await timeline();
    expect(body.sections.order.outbox.find((r) => r.eventKey === paidKey)?.status).toBe('SENT');
    expect(body.sections.accounting.data.ledger.journals).toHaveLength(2);
    const stats = JSON.parse((await runOps('outbox:stats', ...service, '--json')).stdout);
    expect(stats).toMatchObject({ dead: 0, backlog: { NEW: 0, SENDING: 0, DEAD: 0 } });

    await page.reload();
    await expect(
      healthCell(page, 'outbox-health', 'order-service', 'outbox-dead').textContent(),
    ).resolves.toBe('0');
    await page.close();
  });

  it('/ops draws the order timeline: PAID, fulfillment DONE, the coupon, the journals and the absorbed duplicates', async () => {
    const { body } = await timeline();
    const couponCode = body.sections.coupon.data.couponCode;
    const page = await openOps();
    await page.fill('#order-id', orderId);
    await page.click('#timeline-form button[type="submit"]');
    await page.locator('#timeline-chart svg').waitFor();
    const events = page.locator('#timeline-chart g.timeline-event');
    expect(await events.count()).toBe(body.events.length);
    const titles = (lane: string, kind: string) =>
      page
        .locator(`g.timeline-event[data-lane="${lane}"][data-kind="${kind}"] > text:last-of-type`)
        .allTextContents();
    expect(await titles('order-service', 'transition')).toEqual([
      'order CREATED',
      'order PAYING',
      'order PAID',
    ]);
    expect(await titles('fulfillment-service', 'transition')).toContain('fulfillment DONE');
    expect(await titles('coupon-provider', 'coupon')).toEqual([`coupon ${couponCode} granted`]);
    expect(
      (await titles('accounting-service', 'journal')).map((t) => t.replace(/ #\d+$/, '')).sort(),
    ).toEqual(['journal COUPON_GRANT', 'journal PAYMENT']);
    expect(await titles('fulfillment-service', 'duplicate')).toEqual([
      '1 duplicate of OrderPaid absorbed',
    ]);
    expect(await titles('accounting-service', 'duplicate')).toEqual([
      '1 duplicate of OrderPaid absorbed',
    ]);
    expect(
      await page
        .locator('#timeline-sections [data-section="accounting"]')
        .getAttribute('data-status'),
    ).toBe('ok');

    await page.fill('#order-id', '999999999');
    await page.click('#timeline-form button[type="submit"]');
    await page.locator('#timeline-status', { hasText: 'HTTP 404' }).waitFor();
    expect(await page.locator('#timeline-chart svg').count()).toBe(0);
    await page.close();
  });

  it("a poison message shows in the DLQ counts on /ops; ops dlq:replay puts it on the consumer's retry topic, once unless asked again", async () => {
    const producer = new Kafka(
      testKafkaConfig({
        clientId: 'ops-test',
        brokers: stack.kafkaBrokers,
        logLevel: logLevel.NOTHING,
      }),
    ).producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    try {
      await producer.send({
        topic: topicForAggregate('Order', stack.topicPrefix),
        messages: [{ key: 'poison', value: 'not json' }],
      });
    } finally {
      await producer.disconnect();
    }
    const fulfillment = ['--service', url('fulfillment-service')];
    const dlq = async () =>
      JSON.parse((await runOps('dlq:list', ...fulfillment, '--json')).stdout) as Array<{
        partition: number;
        offset: string;
        errorCode: string;
        replayedAt: string | null;
      }>;
    await waitFor(async () => (await dlq()).length === 1, {
      description: 'the poison message dead-lettered by the fulfillment-service',
    });
    const [letter] = await dlq();
    expect(letter).toMatchObject({ errorCode: 'NOT_JSON', replayedAt: null });

    const page = await openOps();
    for (const consumer of ['fulfillment-service', 'accounting-service']) {
      await page
        .locator(`#inbox-health tr[data-service="${consumer}"] [data-testid="dlq"]`, {
          hasText: /^1$/,
        })
        .waitFor();
    }
    await page.close();

    const ref = `${letter.partition}:${letter.offset}`;
    expect((await runOps('dlq:replay', ...fulfillment, '--message', ref)).code).toBe(64);
    const replay = await runOps('dlq:replay', ...fulfillment, '--message', ref, '--yes', '--json');
    expect(replay.code).toBe(0);
    expect(JSON.parse(replay.stdout)).toEqual({
      matched: 1,
      replayed: [expect.objectContaining({ partition: letter.partition, offset: letter.offset })],
      skippedAlreadyReplayed: 0,
      skippedNotOwnTopic: [],
    });
    // Still not JSON: the replayed copy is dead-lettered again, next to the original.
    await waitFor(async () => (await dlq()).length === 2, {
      description: 'the replayed copy dead-lettered again',
    });
    expect((await dlq()).find((m) => m.offset === letter.offset)?.replayedAt).not.toBeNull();
    const again = await runOps('dlq:replay', ...fulfillment, '--message', ref, '--yes', '--json');
    expect(JSON.parse(again.stdout)).toEqual({
      matched: 1,
      replayed: [],
      skippedAlreadyReplayed: 1,
      skippedNotOwnTopic: [],
    });
  });

  it('shows a stopped service as unavailable instead of failing', async () => {
    await stack.services['accounting-service'].stop('SIGTERM');
    const { status, body } = await timeline();
    expect(status).toBe(200);
    expect(body.sections.accounting).toEqual({
      status: 'unavailable',
      error: expect.stringContaining('ECONNREFUSED'),
    });
    expect(body.sections.fulfillment.status).toBe('ok');
    expect(body.events.some((e) => e.lane === 'accounting-service')).toBe(false);

    const page = await openOps();
    await expect(
      page
        .locator('#inbox-health tr[data-service="accounting-service"] td.unavailable')
        .textContent(),
    ).resolves.toContain('unavailable');
    await page.fill('#order-id', orderId);
    await page.click('#timeline-form button[type="submit"]');
    const section = page.locator('#timeline-sections [data-section="accounting"]');
    await section.waitFor();
    expect(await section.getAttribute('data-status')).toBe('unavailable');
    expect(await titles(page)).toContain('order PAID');
    await page.close();
  });
});

async function titles(page: Page): Promise<string[]> {
  return page.locator('g.timeline-event > text:last-of-type').allTextContents();
}
