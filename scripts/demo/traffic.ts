import { DemoSettings, demoUserPrefix, opsHeaders } from './demo-settings';
import { expectOk, mapConcurrently, requestJson } from './http-json';
import { PayNotification, SimulatedPayProvider } from './pay-provider';
import { placeOrder } from './place-order';

/** What the traffic did, as the provider saw it. */
export interface TrafficResult {
  orderIds: string[];
  callbacksDelivered: number;
  /** Answers to the callbacks by HTTP status. */
  callbackAnswers: Record<string, number>;
  /** Coupon replies the provider had dropped before the run (its counter is per process). */
  droppedRepliesBefore: number;
}

/**
 * Creates `orders` orders of the run and pays each with duplicated (some concurrent), late and
 * out-of-order callbacks, while the coupon provider drops a share of its replies after
 * committing the grant (the fulfillment cannot know whether its call worked).
 */
export async function driveTraffic(
  settings: DemoSettings,
  runId: string,
  orders: number,
  say: (line: string) => void,
  dropReplyRate = 0.2,
): Promise<TrafficResult> {
  const { urls } = settings;
  const provider = new SimulatedPayProvider(urls.order, settings.payCallbackSecret);
  const faults = await expectOk<{ droppedReplies: number }>(
    requestJson(`${urls.coupon}/faults`, {
      method: 'PUT',
      body: { dropReplyRate },
      headers: opsHeaders(settings),
    }),
    'switch on the coupon provider faults',
  );

  say(`creating and paying ${orders} orders…`);
  const paying = await mapConcurrently(range(orders), 8, (i) =>
    placeOrder(settings, {
      userId: `${demoUserPrefix(runId)}u${i % 7}`,
      amount: 1_000 + 37 * i,
      currency: i % 3 ? 'EUR' : 'USD',
    }),
  );

  // Every order gets its notification twice at once, once more in a shuffled order, and a
  // third of them a late copy signed 10 minutes ago (the order service must answer 401).
  const notifications = paying.map((o) => provider.notification(o));
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
  return {
    orderIds: paying.map((o) => o.id),
    callbacksDelivered: deliveries.length,
    callbackAnswers: answers,
    droppedRepliesBefore: faults.droppedReplies,
  };
}

/** Switches the coupon provider's faults off; returns the replies it dropped since it started. */
export async function stopCouponFaults(settings: DemoSettings): Promise<number> {
  const faults = await expectOk<{ droppedReplies: number }>(
    requestJson(`${settings.urls.coupon}/faults`, {
      method: 'PUT',
      body: { dropReplyRate: 0 },
      headers: opsHeaders(settings),
    }),
    'switch off the coupon provider faults',
  );
  return faults.droppedReplies;
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
