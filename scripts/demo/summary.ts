import { textTable } from '../ops/text-table';
import { DeadLetterDrill } from './dead-letter-drill';
import { DemoOutcome } from './driver';
import { DEMO_CONSUMERS, DemoConsumer } from './inbox-api';
import { formatInboxTable } from './inbox-table';
import { OrderState } from './run-state';
import { copiesFor } from './verdict';

const RULE = '─'.repeat(72);

/**
 * The demo's last screen: what each service did with the run's traffic, the crash, the Kafka
 * redeliveries, the dead-letter drill, and what every inbox did with every delivery.
 */
export function formatSummary(o: DemoOutcome, opsUrl: string): string {
  const drillId = o.expectations.drill?.orderId;
  // The services' figures are the traffic's; the drill's order has a section of its own.
  const orders = o.state.orders.filter((x) => x.id !== drillId);
  const replayed = DEMO_CONSUMERS.reduce(
    (n, c) => n + o.state.deadLetters[c].filter((l) => l.replayedAt !== null).length,
    0,
  );
  return [
    '',
    `── demo run ${o.runId} ${RULE}`.slice(0, RULE.length),
    ...serviceLines(o, orders),
    ...(o.incident ? [`crash: ${o.incident}`] : []),
    ...redeliveryLines(o.expectations.republished),
    ...(o.expectations.drill ? drillLines(o.expectations.drill) : []),
    ...formatInboxTable(o.state, copiesPerConsumer(o), replayed),
    `one order's story: ${opsUrl}`,
    RULE,
  ].join('\n');
}

function serviceLines(o: DemoOutcome, orders: OrderState[]): string[] {
  const { traffic } = o;
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
  return [
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
      o.state.ledger.clean ? 'yes' : `NO (${o.state.ledger.mismatches} mismatches)`,
    ),
  ];
}

/** The copies the driver wrote, per topic, and what they stand for. */
function redeliveryLines(republished: Record<string, number>): string[] {
  const rows = Object.entries(republished).map(([topic, n]) => [topic, n]);
  return [
    'Kafka redeliveries: the driver wrote every event of every third order back to its',
    '  partition, byte for byte, as Kafka redelivers after a crash:',
    ...textTable(['topic', 'copies written'], rows)
      .split('\n')
      .map((line) => `  ${line}`),
  ];
}

function drillLines(d: DeadLetterDrill): string[] {
  const keys = d.deadLettered.map((l) => l.eventKey).join(', ');
  const codes = [...new Set(d.deadLettered.map((l) => l.errorCode))].join(', ');
  const outcome = d.booked ? 'booked: the order has its payment and coupon journals' : 'NOT booked';
  return [
    `dead letter: order ${d.orderId}, paid in ${d.currency}, which the ledger was not open in`,
    `  ${d.consumer} dead-lettered ${d.deadLettered.length}: ${keys} (${codes})`,
    `  dry run: ${d.wouldReplay} would be replayed to ${d.retryTopic ?? '-'}`,
    `  ${d.currency} opened in the ledger; ${d.replayed} replayed, ${outcome}`,
  ];
}

function copiesPerConsumer(o: DemoOutcome): Record<DemoConsumer, number> {
  const copies = {} as Record<DemoConsumer, number>;
  for (const c of DEMO_CONSUMERS) copies[c] = copiesFor(o.expectations, c);
  return copies;
}

function row(label: string, value: string | number): string {
  return `  ${label.padEnd(34)}${value}`;
}
