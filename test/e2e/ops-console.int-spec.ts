import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { Page } from 'playwright-core';
import { topicForAggregate } from '@app/trading-events';
import { waitFor, testKafkaConfig } from '@outbox-inbox/test-kit';
import { requestJson } from '../../scripts/demo/http-json';
import { launchChromium } from '../support/chromium';
import { TEST_LOG_DIR } from '../support/test-log';
import { PayingOrder, TradingStack } from '../support/trading-stack';

// Four services and a browser share a small machine with other suites.
jest.setTimeout(240_000);

interface Delivery {
  eventKey: string;
  duplicateCount: number;
}
interface Timeline {
  sections: {
    order: { outbox: Array<{ eventKey: string; status: string }> };
    fulfillment: { status: string; data: { fulfillment: { status: string }; inbox: Delivery[] } };
    accounting: {
      status: string;
      data: { ledger: { journals: unknown[] }; inbox: Delivery[] };
    };
  };
  events: unknown[];
}
interface AuditRecord {
  service: string;
  action: string;
  target: unknown;
  count: number;
  reason: string | null;
  who: string;
}

/**
 * The /ops console as an operator uses it, in headless Chromium, signed in with a named token
 * typed into the URL (http://alice:TOKEN@host/ops): a stuck order found in its list and its
 * timeline opened; a dead letter seen, dry-run and replayed; a DEAD outbox row requeued; the
 * chain complete, the verified pay callbacks in the order-service lane; both actions in the
 * audit log under alice's name; DEAD rows requeued by a filter; a gap skipped, and only with a
 * reason. Every view and dialog is
 * checked with axe, and each step is saved as a screenshot under test-logs/ops-console/.
 */
/** Writes one message straight to the order topic, as a producer outside the chain would. */
async function plantOnOrderTopic(
  chain: TradingStack,
  message: { key: string; value: string },
): Promise<void> {
  const producer = new Kafka(
    testKafkaConfig({
      clientId: 'ops-console-test',
      brokers: chain.stack.kafkaBrokers,
      logLevel: logLevel.NOTHING,
    }),
  ).producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  try {
    await producer.send({
      topic: topicForAggregate('Order', chain.stack.topicPrefix),
      messages: [message],
    });
  } finally {
    await producer.disconnect();
  }
}

describe('the /ops console, as an operator uses it', () => {
  const aliceToken = randomBytes(24).toString('base64url');
  let chain: TradingStack;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let stuck: PayingOrder;
  let paid: PayingOrder;
  const shots = join(TEST_LOG_DIR, 'ops-console');
  let step = 0;
  const screenshot = async (name: string) => {
    step += 1;
    await page.screenshot({
      path: join(shots, `${String(step).padStart(2, '0')}-${name}.png`),
      fullPage: true,
    });
  };
  /** No serious or critical accessibility violation in what the page shows now. */
  const expectAccessible = async (view: string) => {
    const { violations } = await new AxeBuilder({ page }).analyze();
    const grave = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${view}: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target).join(' | ')}`);
    expect(grave).toEqual([]);
  };
  const timeline = async (id: string) =>
    (
      await requestJson<Timeline>(`${chain.url('ops-console')}/orders/${id}/timeline`, {
        headers: chain.opsHeaders,
      })
    ).body;
  const nav = async (label: string) => {
    await page.getByRole('link', { name: label, exact: true }).click();
  };
  const audited = async () =>
    (
      await requestJson<{ records: AuditRecord[] }>(`${chain.url('ops-console')}/ops/audit`, {
        headers: chain.opsHeaders,
      })
    ).body.records;

  beforeAll(async () => {
    const named = { OPS_API_TOKENS: `alice:${aliceToken}` };
    // A parked event counts as an open gap after a second (default a minute).
    const consumer = { ...named, INBOX_GAP_ALERT_MS: '1000' };
    chain = await TradingStack.start({
      opsConsole: true,
      env: {
        'ops-console': named,
        'order-service': named,
        'fulfillment-service': consumer,
        'accounting-service': consumer,
      },
    });
    [stuck, paid] = await chain.openOrders(2);
    expect(await chain.pay([paid])).toEqual([200]);
    // Another notification of the settled payment (a duplicate), and a copy signed 10 min ago.
    expect(await chain.provider.deliver(chain.provider.notification(paid))).toBe(200);
    expect(await chain.provider.deliver(chain.provider.notification(paid), 600)).toBe(401);
    await waitFor(
      async () => {
        const t = await timeline(paid.id);
        return (
          t.sections.order.outbox.every((r) => r.status === 'SENT') &&
          t.sections.fulfillment.data?.fulfillment?.status === 'DONE' &&
          t.sections.accounting.data?.ledger?.journals.length === 2
        );
      },
      { timeoutMs: 90_000, description: 'the paid order fulfilled and booked' },
    );
    browser = await launchChromium();
    page = await browser.context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await chain?.stop();
  });

  it('finds the stuck order on the home page and in its list, and opens its timeline', async () => {
    const { host } = new URL(chain.url('ops-console'));
    // Credentials in the URL, as an operator might type them: the page must still work.
    const opened = await page.goto(`http://alice:${aliceToken}@${host}/ops?stuckAfterMs=0`);
    // Scripts only from the console's own files: no inline script would run.
    expect(opened?.headers()['content-security-policy']).toContain("script-src 'self'");
    const stuckFigure = page.getByTestId('figure-stuck-orders');
    await page.locator('[data-testid="figure-stuck-orders"] .n', { hasText: /^1$/ }).waitFor();
    await page.getByText(/^updated \d+ s ago/).waitFor();
    await expectAccessible('home');
    await screenshot('home');

    await stuckFigure.click();
    const row = page.locator(`tr[data-order-id="${stuck.id}"]`);
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('PAYING');
    expect(await page.locator('tr[data-order-id]').count()).toBe(1);
    await expectAccessible('stuck orders');
    await screenshot('stuck-orders');

    // The paid order is not stuck: searched for among the stuck ones, it is not there.
    await page.fill('#orders-q', paid.id);
    await page.click('#orders-search button[type="submit"]');
    await page.getByText('No stuck orders.').waitFor();
    await page.getByRole('link', { name: 'all', exact: true }).click();
    await page.locator(`tr[data-order-id="${paid.id}"][data-status="PAID"]`).waitFor();

    await page.getByRole('link', { name: 'Orders', exact: true }).click();
    await page.getByRole('link', { name: `timeline of order ${stuck.id}` }).click();
    await page.locator('#timeline-chart svg').waitFor();
    const expected = (await timeline(stuck.id)).events.length;
    expect(await page.locator('g.timeline-event').count()).toBe(expected);
    await page.locator('g.timeline-event[data-kind="transition"]').last().click();
    await page.locator('#timeline-details:not([hidden])').waitFor();
    expect(await page.locator('#details-title').textContent()).toBe('order PAYING');
    expect(await page.locator('#timeline-legend').textContent()).toContain('published to Kafka');
    await expectAccessible('timeline');
    await screenshot('stuck-order-timeline');
  });

  it('shows a planted dead letter and replays it after a dry run', async () => {
    await plantOnOrderTopic(chain, { key: 'planted', value: 'planted: not json' });
    await nav('Dead letters');
    const letters = page.locator('[data-service="fulfillment-service"] tr[data-dead-letter]');
    await waitFor(async () => (await letters.count()) === 1, {
      description: 'the planted dead letter listed (the page refreshes on its own)',
    });
    expect(await letters.first().textContent()).toContain('NOT_JSON');
    expect(await letters.first().textContent()).toContain('planted: not json');
    await expectAccessible('dead letters');
    await screenshot('dead-letters');

    await letters
      .first()
      .getByRole('button', { name: /^Replay dead letter/ })
      .click();
    await page.getByTestId('dry-run').waitFor();
    expect(await page.getByTestId('dry-run').textContent()).toMatch(/1 would be replayed to /);
    await page.fill('#action-reason', 'parser fixed, OPS-7');
    await expectAccessible('replay dialog');
    await screenshot('replay-dry-run');
    await page.click('#action-confirm');
    await page.getByTestId('action-outcome').waitFor();
    expect(await page.getByTestId('action-outcome').textContent()).toBe(
      'Replayed 1 message(s) to the retry topic.',
    );
    await screenshot('replayed');
    await page.click('#action-cancel');
    // Still not JSON: the replayed copy is dead-lettered again, and the original shows as replayed.
    await page
      .locator('[data-service="fulfillment-service"] tr[data-dead-letter][data-replayed="yes"]')
      .waitFor();
    await waitFor(async () => (await letters.count()) === 2, {
      description: 'the replayed copy dead-lettered again beside the original',
    });
    // The home page counts what still needs a person: the new dead letter, not the replayed one.
    await nav('Home');
    await page
      .locator('[data-testid="figure-dead-letters-fulfillment-service"] .n', { hasText: /^1$/ })
      .waitFor();
  });

  it('requeues a planted DEAD row, and the chain completes', async () => {
    await chain.query(
      'order_service',
      `UPDATE t_outbox SET status = 'DEAD', last_error = 'planted by the console test'
       WHERE aggregate_type = 'Order' AND aggregate_id = ? AND event_type = 'OrderPaid'`,
      [paid.id],
    );
    await nav('Outbox DEAD rows');
    const row = page.locator('[data-service="order-service"] tr[data-dead-row]');
    await row.waitFor();
    expect(await row.textContent()).toContain('planted by the console test');
    await expectAccessible('DEAD rows');
    await screenshot('dead-rows');

    await row.getByRole('button', { name: /^Requeue row/ }).click();
    await page.fill('#action-reason', 'broker quota raised');
    await expectAccessible('requeue dialog');
    await screenshot('requeue-dialog');
    await page.click('#action-confirm');
    await page.getByTestId('action-outcome').waitFor();
    expect(await page.getByTestId('action-outcome').textContent()).toBe('Requeued 1 row(s).');
    await page.click('#action-cancel');
    await page.locator('[data-service="order-service"] .empty').waitFor();

    const paidKey = `OrderPaid:${paid.id}:3`;
    const duplicates = (list: Delivery[]) =>
      list.find((d) => d.eventKey === paidKey)?.duplicateCount;
    await waitFor(
      async () => {
        const { sections } = await timeline(paid.id);
        return (
          sections.order.outbox.every((r) => r.status === 'SENT') &&
          duplicates(sections.fulfillment.data.inbox) === 1 &&
          duplicates(sections.accounting.data.inbox) === 1
        );
      },
      { description: 'the requeued OrderPaid sent again and absorbed by both consumers' },
    );
    await page.fill('#order-id', paid.id);
    await page.click('#timeline-form button[type="submit"]');
    await page
      .locator('g.timeline-event[data-kind="duplicate"][data-lane="accounting-service"]')
      .waitFor();
    await page
      .locator('g.timeline-event[data-lane="accounting-service"][data-kind="journal"]')
      .nth(1)
      .waitFor();
    expect(await page.locator('.arrows path').count()).toBeGreaterThanOrEqual(4);
    // The verified pay callbacks are steps of the order-service, with their own legend entry.
    const callbacks = await page
      .locator('g.timeline-event[data-kind="callback"][data-lane="order-service"]')
      .evaluateAll((steps) => steps.map((g) => g.getAttribute('aria-label')?.split(' (')[0]));
    expect(callbacks).toEqual([
      'pay callback accepted: SUCCESS',
      'pay callback duplicate',
      'pay callback late',
    ]);
    expect(await page.locator('#timeline-legend').textContent()).toContain(
      'pay callback (signature verified)',
    );
    await screenshot('chain-complete');
  });

  it('keeps both actions in the audit log under the name of the token used', async () => {
    const { status, body } = await requestJson<{ records: AuditRecord[] }>(
      `${chain.url('ops-console')}/ops/audit`,
      { headers: chain.opsHeaders },
    );
    expect(status).toBe(200);
    expect(body.records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          service: 'order-service',
          action: 'outbox.requeue',
          count: 1,
          reason: 'broker quota raised',
          who: 'alice',
        }),
        expect.objectContaining({
          service: 'fulfillment-service',
          action: 'inbox.replay',
          count: 1,
          reason: 'parser fixed, OPS-7',
          who: 'alice',
        }),
      ]),
    );
    expect(body.records).toHaveLength(2);

    await nav('Audit log');
    await page.locator('tr[data-audit-action="inbox.replay"][data-who="alice"]').waitFor();
    await page.locator('tr[data-audit-action="outbox.requeue"][data-who="alice"]').waitFor();
    await expectAccessible('audit log');
    await screenshot('audit-log');

    for (const [label, ready] of [
      ['Parked and gaps', '[data-service="accounting-service"] p'],
      ['Stuck fulfillments', '#list-body .empty'],
    ]) {
      await nav(label);
      await page.locator(ready).first().waitFor();
      await expectAccessible(label);
    }
    await screenshot('stuck-fulfillments');
  });

  it('requeues every DEAD row matching a filter, after a confirmation, and audits the filter', async () => {
    await chain.query(
      'order_service',
      `UPDATE t_outbox SET status = 'DEAD', last_error = 'planted for the filter'
       WHERE aggregate_type = 'Order' AND aggregate_id = ? AND event_type = 'OrderPaymentStarted'`,
      [stuck.id],
    );
    await nav('Outbox DEAD rows');
    await page.fill('#dead-aggregateId', stuck.id);
    await page.click('#dead-filter button[type="submit"]');
    const rows = page.locator('[data-service="order-service"] tr[data-dead-row]');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('planted for the filter');
    await page.getByText(`No DEAD rows match aggregateId ${stuck.id}.`).waitFor();

    await page.getByRole('button', { name: 'Requeue all 1 matching…' }).click();
    expect(await page.locator('#action-body').textContent()).toContain(
      `every DEAD row matching aggregateId ${stuck.id} (1 listed)`,
    );
    await page.fill('#action-reason', 'relay fixed, OPS-9');
    await expectAccessible('requeue-matching dialog');
    await screenshot('requeue-matching-dialog');
    await page.click('#action-confirm');
    await page.getByTestId('action-outcome').waitFor();
    expect(await page.getByTestId('action-outcome').textContent()).toBe('Requeued 1 row(s).');
    await page.click('#action-cancel');
    await page.locator('[data-service="order-service"] .empty').waitFor();
    expect(await audited()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          service: 'order-service',
          action: 'outbox.requeue',
          target: { aggregateId: stuck.id },
          count: 1,
          reason: 'relay fixed, OPS-9',
          who: 'alice',
        }),
      ]),
    );
  });

  it('skips a gap only with a reason, and audits the skip', async () => {
    // Version 5 of an order whose versions 1-4 never come: parked, an open gap after 1 s.
    const lonely = `gap${randomBytes(3).toString('hex')}`;
    const at = new Date().toISOString();
    await plantOnOrderTopic(chain, {
      key: lonely,
      value: JSON.stringify({
        eventId: randomUUID(),
        eventType: 'OrderCancelled',
        eventKey: `OrderCancelled:${lonely}:5`,
        aggregateType: 'Order',
        aggregateId: lonely,
        aggregateVersion: 5,
        occurredAt: at,
        schemaVersion: 1,
        payload: { orderId: lonely, userId: 'u', reason: 'test', cancelledAt: at },
      }),
    });
    await nav('Parked and gaps');
    const skip = page
      .locator('[data-service="fulfillment-service"]')
      .getByRole('button', { name: `Skip version 1 of Order ${lonely}` });
    await skip.waitFor({ timeout: 30_000 }); // the page refreshes every 5 s
    await skip.click();

    // No reason: the dialog refuses to send, and says which field is missing.
    await page.click('#action-confirm');
    expect(await page.locator('#action-reason:invalid').count()).toBe(1);
    expect(await page.getByTestId('action-outcome').count()).toBe(0);
    expect(await page.locator('#action-dialog[open]').count()).toBe(1);

    await page.fill('#action-reason', 'OrderCreated v1 was never written (planted by the test)');
    await expectAccessible('gap-skip dialog');
    await screenshot('gap-skip-dialog');
    await page.click('#action-confirm');
    await page.getByTestId('action-outcome').waitFor();
    expect(await page.getByTestId('action-outcome').textContent()).toBe(
      'Skipped version 1; 0 parked event(s) applied.',
    );
    await page.click('#action-cancel');
    expect(await audited()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          service: 'fulfillment-service',
          action: 'inbox.gap-skip',
          count: 1,
          reason: 'OrderCreated v1 was never written (planted by the test)',
          who: 'alice',
        }),
      ]),
    );
  });
});
