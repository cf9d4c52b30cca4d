import { DemoOutcome } from './driver';
import { DEMO_CONSUMERS, tallyConsumer } from './run-state';

/** The demo's last screen: what each service and each inbox did with this run's traffic. */
export function formatSummary(o: DemoOutcome, opsUrl: string): string {
  const { traffic, state } = o;
  const orders = state.orders;
  const answers = Object.entries(traffic.callbackAnswers)
    .map(([status, n]) => `${n}×${status}`)
    .join(', ');
  const accepted = Object.entries(traffic.callbackAnswers)
    .filter(([status]) => status.startsWith('2'))
    .reduce((n, [, count]) => n + count, 0);
  const paid = orders.filter((x) => x.status === 'PAID').length;
  const transitions = orders.reduce((n, x) => n + x.paidTransitions, 0);
  const retried = orders.reduce((n, x) => n + Math.max(0, x.couponAttempts - 1), 0);
  const journals = (kind: string) => orders.reduce((n, x) => n + (x.journals[kind] ?? 0), 0);
  const copies = Object.entries(o.republished)
    .map(([topic, n]) => `${n} on ${topic}`)
    .join(', ');
  const row = (label: string, value: string | number) => `  ${label.padEnd(34)}${value}`;
  const lines = [
    '',
    `── demo run ${o.runId} ─────────────────────────────────────`,
    'order-service',
    row('orders created, paid', `${orders.length}, ${paid} (${transitions} PAID transitions)`),
    row('callbacks delivered', `${traffic.callbacksDelivered} (${answers})`),
    row('duplicate callbacks absorbed', `${accepted - transitions} answered 2xx, changed nothing`),
    'fulfillment-service + coupon-provider',
    row('fulfillments done', orders.filter((x) => x.fulfillmentStatus === 'DONE').length),
    row(
      'coupon replies dropped, retried',
      `${o.droppedReplies}, ${retried} calls retried with the same key`,
    ),
    row('coupons granted', orders.filter((x) => x.couponCode).length),
    'accounting-service',
    row('payment, coupon journals', `${journals('PAYMENT')}, ${journals('COUPON_GRANT')}`),
    row(
      'ledger balanced and reconciled',
      state.ledger.clean ? 'yes' : `NO (${state.ledger.mismatches} mismatches)`,
    ),
    ...(o.incident ? [`crash: ${o.incident}`] : []),
    `Kafka redeliveries: the driver wrote copies of ${copies}; duplicates below also count what`,
    '  Kafka delivered again by itself (offsets not committed before a crash, relay resends)',
    `inboxes          ${'deliveries'.padStart(11)}${'duplicates'.padStart(12)}${'effects'.padStart(9)}${'dead letters'.padStart(14)}`,
    ...DEMO_CONSUMERS.map((c) => {
      const t = tallyConsumer(state, c);
      return `  ${c.padEnd(20)}${String(t.deliveries).padStart(9)}${String(t.duplicatesAbsorbed).padStart(12)}${String(t.effectsApplied).padStart(9)}${String(t.deadLetters).padStart(14)}`;
    }),
    `one order's story: ${opsUrl}`,
    '──────────────────────────────────────────────────────────────',
  ];
  return lines.join('\n');
}
