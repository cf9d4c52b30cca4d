import { randomUUID } from 'node:crypto';
import { mapConcurrently, requestJson } from './http-json';
import { PayNotification, SimulatedPayProvider } from './pay-provider';

/** Where the four services answer. */
export interface ServiceUrls {
  order: string;
  fulfillment: string;
  accounting: string;
  coupon: string;
}

export interface DriverOptions {
  urls: ServiceUrls;
  payCallbackSecret: string;
  /** The services' OPS_API_TOKEN, for the fault switch and the stats the summary reads. */
  opsApiToken: string;
  orders: number;
  /** Share of coupon grants whose reply the provider drops after committing. Default 0.2. */
  dropReplyRate?: number;
  /** Longest wait for the chain to settle. Default 120 s. */
  settleTimeoutMs?: number;
  progress?: (line: string) => void;
}

/** What the demo prints, read back from the services (never from the driver's own counts). */
export interface DemoSummary {
  ordersCreated: number;
  ordersPaid: number;
  callbacksDelivered: number;
  callbackAnswers: Record<string, number>;
  fulfillmentsDone: number;
  couponsGranted: number;
  idempotencyKeysWithSeveralGrants: number;
  paymentJournals: number;
  journals: number;
  ledgerBalanced: boolean;
  reconciliationMismatches: number;
  duplicatesAbsorbedByInboxes: number;
}

interface OrderView {
  id: string;
  amount: number;
  currency: string;
  status: string;
  payOrderId: string | null;
}

/**
 * The demo: creates orders, pays each with duplicated (some concurrent), late and
 * out-of-order callbacks while the coupon provider drops some replies, waits until every
 * order is fulfilled and booked, and reads the outcome back from the services.
 */
export async function runDemo(options: DriverOptions): Promise<DemoSummary> {
  const { urls } = options;
  const say = options.progress ?? (() => undefined);
  const provider = new SimulatedPayProvider(urls.order, options.payCallbackSecret);
  const ops = { authorization: `Bearer ${options.opsApiToken}` };
  await expectOk(
    requestJson(`${urls.coupon}/faults`, {
      headers: ops,
      method: 'PUT',
      body: { dropReplyRate: options.dropReplyRate ?? 0.2 },
    }),
    'set coupon provider faults',
  );

  say(`creating and paying ${options.orders} orders…`);
  const orders = await mapConcurrently(range(options.orders), 8, async (i) => {
    const created = await expectOk<OrderView>(
      requestJson(`${urls.order}/orders`, {
        body: { userId: `user-${i % 7}`, amount: 1_000 + 37 * i, currency: i % 3 ? 'EUR' : 'USD' },
        headers: { 'idempotency-key': randomUUID() },
      }),
      'create order',
    );
    return expectOk<OrderView>(
      requestJson(`${urls.order}/orders/${created.id}/pay`, { method: 'POST' }),
      'pay',
    );
  });

  // Every order gets its notification twice at once, once more in a shuffled order, and a
  // third of them a late copy signed 10 minutes ago (the order service must answer 401).
  const notifications = orders.map((o) =>
    provider.notification({ ...o, payOrderId: o.payOrderId! }),
  );
  const deliveries: Array<{ notification: PayNotification; ageSeconds: number }> = [
    ...notifications.flatMap((n) => [
      { notification: n, ageSeconds: 0 },
      { notification: n, ageSeconds: 0 },
    ]),
    ...shuffle(notifications).map((n) => ({ notification: n, ageSeconds: 0 })),
    ...notifications
      .filter((_, i) => i % 3 === 0)
      .map((n) => ({ notification: n, ageSeconds: 600 })),
  ];
  say(`delivering ${deliveries.length} callbacks (duplicated, concurrent, shuffled, late)…`);
  const answers: Record<string, number> = {};
  await mapConcurrently(deliveries, 16, async ({ notification, ageSeconds }) => {
    const status = await provider.deliver(notification, ageSeconds);
    answers[status] = (answers[status] ?? 0) + 1;
  });

  say('waiting for fulfillment and accounting to settle…');
  const deadline = Date.now() + (options.settleTimeoutMs ?? 120_000);
  let summary = await readSummary(ops, urls, orders, deliveries.length, answers);
  while (!(summary.fulfillmentsDone >= orders.length && summary.paymentJournals >= orders.length)) {
    if (Date.now() > deadline) break;
    say(
      `  fulfilled ${summary.fulfillmentsDone}/${orders.length}, booked ${summary.paymentJournals}/${orders.length}`,
    );
    await new Promise((r) => setTimeout(r, 500));
    summary = await readSummary(ops, urls, orders, deliveries.length, answers);
  }
  await requestJson(`${urls.coupon}/faults`, {
    headers: ops,
    method: 'PUT',
    body: { dropReplyRate: 0 },
  });
  return summary;
}

async function readSummary(
  ops: Record<string, string>,
  urls: ServiceUrls,
  orders: OrderView[],
  callbacksDelivered: number,
  callbackAnswers: Record<string, number>,
): Promise<DemoSummary> {
  const current = await Promise.all(
    orders.map((o) =>
      expectOk<OrderView>(requestJson(`${urls.order}/orders/${o.id}`), 'get order'),
    ),
  );
  const fulfillment = await expectOk<Record<string, number>>(
    requestJson(`${urls.fulfillment}/fulfillments/stats`, { headers: ops }),
    'fulfillment stats',
  );
  const grants = await expectOk<{ grants: number; keysWithSeveralGrants: number }>(
    requestJson(`${urls.coupon}/coupons/grants/stats`),
    'coupon stats',
  );
  const reconciliation = await expectOk<{
    clean: boolean;
    paymentJournals: number;
    journals: number;
    mismatches: unknown[];
  }>(requestJson(`${urls.accounting}/ledger/reconciliation`, { headers: ops }), 'reconciliation');
  const inboxes = await Promise.all(
    [urls.fulfillment, urls.accounting].map((url) =>
      expectOk<{ sinceStart: { duplicates: number; stale: number } }>(
        requestJson(`${url}/inbox/stats`, { headers: ops }),
        'inbox stats',
      ),
    ),
  );
  return {
    ordersCreated: orders.length,
    ordersPaid: current.filter((o) => o.status === 'PAID').length,
    callbacksDelivered,
    callbackAnswers: { ...callbackAnswers },
    fulfillmentsDone: fulfillment.DONE ?? 0,
    couponsGranted: grants.grants,
    idempotencyKeysWithSeveralGrants: grants.keysWithSeveralGrants,
    paymentJournals: reconciliation.paymentJournals,
    journals: reconciliation.journals,
    ledgerBalanced: reconciliation.clean,
    reconciliationMismatches: reconciliation.mismatches.length,
    duplicatesAbsorbedByInboxes: inboxes.reduce(
      (sum, s) => sum + s.sinceStart.duplicates + s.sinceStart.stale,
      0,
    ),
  };
}

/** Prints the summary as the demo's last screen. */
export function formatSummary(s: DemoSummary): string {
  const answers = Object.entries(s.callbackAnswers)
    .map(([status, n]) => `${n}×${status}`)
    .join(', ');
  return [
    '',
    '── trading demo summary ──────────────────────────────',
    `orders created                 ${s.ordersCreated}`,
    `orders paid                    ${s.ordersPaid}`,
    `callbacks delivered            ${s.callbacksDelivered} (${answers})`,
    `fulfillments done              ${s.fulfillmentsDone}`,
    `coupons granted                ${s.couponsGranted} (keys with two grants: ${s.idempotencyKeysWithSeveralGrants})`,
    `payment journals booked        ${s.paymentJournals} (all journals: ${s.journals})`,
    `duplicates absorbed by inboxes ${s.duplicatesAbsorbedByInboxes}`,
    `ledger balanced, reconciled    ${s.ledgerBalanced ? 'yes' : `NO (${s.reconciliationMismatches} mismatches)`}`,
    '──────────────────────────────────────────────────────',
  ].join('\n');
}

/** True when the chain did what it promises: every order once, nothing twice. */
export function demoSucceeded(s: DemoSummary): boolean {
  return (
    s.ordersPaid === s.ordersCreated &&
    s.fulfillmentsDone === s.ordersCreated &&
    s.couponsGranted === s.ordersCreated &&
    s.idempotencyKeysWithSeveralGrants === 0 &&
    s.paymentJournals === s.ordersCreated &&
    s.ledgerBalanced
  );
}

async function expectOk<T>(
  call: Promise<{ status: number; body: unknown }>,
  what: string,
): Promise<T> {
  const { status, body } = await call;
  if (status < 200 || status >= 300)
    throw new Error(`${what}: HTTP ${status} ${JSON.stringify(body)}`);
  return body as T;
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

function shuffle<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}
