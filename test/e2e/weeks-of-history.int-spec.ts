import { InvariantReport } from '@app/trading-checker';
import { waitFor } from '@outbox-inbox/test-kit';
import { DeploymentHistory } from '../support/deployment-history';
import { requestJson } from '../../scripts/demo/http-json';
import { TradingStack } from '../support/trading-stack';
import { plantViolations } from '../support/planted-violations';

/**
 * The invariant checker on a deployment that has lived for weeks: orders paid, cancelled
 * before payment (fulfillment's CANCELLED marker) and refunded after fulfillment (coupon
 * revoked, refund and reversal booked), an event dead-lettered and replayed, and the inbox and
 * the outbox pruned twice with their rows aged past retention while the topics keep every
 * message. The checker must find nothing wrong, count what retention made uncomparable, and
 * then report each planted violation with its ids.
 */
describe('The invariant checker on weeks of history', () => {
  let chain: TradingStack;
  let history: DeploymentHistory;
  const orders = { paid: [] as string[], cancelled: [] as string[], refunded: [] as string[] };
  let healthy: InvariantReport;

  beforeAll(async () => {
    chain = await TradingStack.start();
    history = new DeploymentHistory(chain);
  });
  afterAll(async () => {
    await chain?.stop();
  });

  it('holds on a deployment weeks old, and counts what retention removed', async () => {
    // Week 1: trade; one paid order is refunded.
    let week = await history.trade(6, 4);
    orders.paid.push(...week.paid.slice(1));
    orders.cancelled.push(...week.cancelled);
    await history.refund(week.paid[0]);
    orders.refunded.push(week.paid[0]);
    await history.settled(orders);
    await history.age(8);
    await history.prune();

    // Week 2: the coupon provider fails while a refund revokes a coupon: fulfillment retries,
    // then dead-letters the OrderCancelled; once the provider is back an operator replays it.
    week = await history.trade(6, 4);
    orders.paid.push(...week.paid.slice(1));
    orders.cancelled.push(...week.cancelled);
    await history.settled({ ...orders, paid: [...orders.paid, week.paid[0]] });
    await history.providerFailing(1);
    await history.refund(week.paid[0]);
    await waitFor(async () => (await history.deadLetters('fulfillment-service')).length === 1, {
      description: 'the refund dead-lettered by fulfillment',
    });
    await history.providerFailing(0);
    await history.replayDeadLetters('fulfillment-service');
    orders.refunded.push(week.paid[0]);
    await history.settled(orders);
    await history.age(8);
    await history.prune();

    // Week 3: this week's rows are within every retention window.
    week = await history.trade(8, 6);
    orders.paid.push(...week.paid);
    orders.cancelled.push(...week.cancelled);
    await history.settled(orders);

    healthy = await chain.invariants();
    expect(healthy.violations).toEqual([]);
    expect(healthy.observations).toMatchObject({
      paidOrders: orders.paid.length + orders.refunded.length,
      deadLetteredEvents: [],
      parkedEvents: [],
      inFlightEvents: [],
    });
    // Retention removed the first two weeks' inbox and outbox rows, not their messages: what
    // can no longer be compared is counted, never reported as broken.
    const uncomparable = new Map(healthy.notCheckable.map((n) => [n.rule, n.count]));
    expect(uncomparable.get('every-event-accounted-for')).toBeGreaterThan(0);
    expect(uncomparable.get('versions-applied-in-order')).toBeGreaterThan(0);
    expect(uncomparable.get('topic-message-has-outbox-row')).toBeGreaterThan(0);
  });

  it('reports each planted violation with its ids', async () => {
    expect(healthy?.ok).toBe(true);
    const { planted, staleRefund } = await plantViolations(chain, orders);
    const report = await chain.invariants();
    const ids = (rule: string) => report.violations.find((v) => v.rule === rule)?.ids ?? [];
    for (const { rule, id } of planted)
      expect({ rule, ids: ids(rule) }).toEqual({
        rule,
        ids: expect.arrayContaining([expect.stringMatching(new RegExp(`${escapeRegExp(id)}$`))]),
      });
    expect(new Set(report.violations.map((v) => v.rule))).toEqual(
      new Set(planted.map((p) => p.rule)),
    );

    // Reconciliation, the ledger's own check, finds the refund of an order that stayed paid.
    const reconciled = await requestJson<{ mismatches: Array<Record<string, unknown>> }>(
      `${chain.url('accounting-service')}/ledger/reconciliation`,
      { headers: chain.opsHeaders },
    );
    expect(reconciled.body.mismatches).toContainEqual(
      expect.objectContaining({ kind: 'REFUND_OF_STALE_CANCEL', ...staleRefund }),
    );
  });
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
