import { createConnection } from 'mysql2/promise';
import { DemoSettings, demoUserPrefix } from './demo-settings';
import { DeadLetterView, listDeadLetters, replayDeadLetters } from './inbox-api';
import { SimulatedPayProvider } from './pay-provider';
import { placeOrder } from './place-order';
import { pollUntil } from './poll';
import { OrderState, readOrder } from './run-state';

/**
 * The drill's currency: one the order-service sells in (any ISO 4217 code) and the ledger's
 * migration does not open (see apps/accounting-service/README.md, "Currencies").
 */
export const DRILL_CURRENCY = 'CHF';

/** The consumer that dead-letters the drill's events: the ledger's. */
const CONSUMER = 'accounting-service';

/** What the dead-letter drill saw and did, step by step. */
export interface DeadLetterDrill {
  orderId: string;
  currency: string;
  consumer: typeof CONSUMER;
  /** The order's dead letters as the operator API listed them, before the replay. */
  deadLettered: DeadLetterView[];
  /** What the dry run answered it would replay. */
  wouldReplay: number;
  /** Where the replay publishes: the consumer's own retry topic. */
  retryTopic: string | null;
  /** What the real replay published. */
  replayed: number;
  /** True once the replayed events were booked: the order's payment and coupon journals. */
  booked: boolean;
}

/**
 * The dead-letter pattern, as an operator meets it. The shop sells one order in CHF, which the
 * ledger is not open in: the order is paid and fulfilled, and the accounting-service
 * dead-letters its OrderPaid and its FulfillmentDone (LEDGER_CURRENCY_NOT_OPEN). The drill
 * waits for both on GET /inbox/dead-letters, asks for a dry run of their replay, opens CHF in
 * the ledger (the row finance would add), replays them through the operator API and waits
 * until both are booked. A wait that runs out ends the drill; the verdict names what is missing.
 */
export async function runDeadLetterDrill(
  settings: DemoSettings,
  runId: string,
  say: (line: string) => void,
  timeoutMs = 60_000,
): Promise<DeadLetterDrill> {
  const order = await placeOrder(settings, {
    userId: `${demoUserPrefix(runId)}drill`,
    amount: 4_990,
    currency: DRILL_CURRENCY,
  });
  const provider = new SimulatedPayProvider(settings.urls.order, settings.payCallbackSecret);
  const answer = await provider.deliver(provider.notification(order));
  if (answer !== 200) throw new Error(`the drill order's pay callback answered ${answer}`);
  say(
    `dead-letter drill: order ${order.id} paid in ${DRILL_CURRENCY}, which the ledger is not open in…`,
  );

  const drill: DeadLetterDrill = {
    orderId: order.id,
    currency: DRILL_CURRENCY,
    consumer: CONSUMER,
    deadLettered: [],
    wouldReplay: 0,
    retryTopic: null,
    replayed: 0,
    booked: false,
  };
  const seen = await pollUntil(
    () => drillLetters(settings, order.id),
    (l) => l.complete,
    {
      timeoutMs,
    },
  );
  drill.deadLettered = seen.value.letters;
  if (!seen.done) return drill;
  describeLetters(drill.deadLettered, say);
  await replayAfterTheFix(settings, drill, say);
  if (drill.replayed === 0) return drill;
  const booked = await pollUntil(() => readOrder(settings, order.id), journalsBooked, {
    timeoutMs,
  });
  drill.booked = booked.done;
  say(
    drill.booked
      ? `  applied: order ${order.id} now has its payment and its coupon journal`
      : `  not applied within ${timeoutMs / 1000} s`,
  );
  return drill;
}

/**
 * The dead letters of the order's two booked events: its OrderPaid (keyed by the order) and
 * its FulfillmentDone (keyed by the fulfillment, known once the order's timeline shows it).
 */
async function drillLetters(
  settings: DemoSettings,
  orderId: string,
): Promise<{ letters: DeadLetterView[]; complete: boolean }> {
  const { fulfillmentId } = await readOrder(settings, orderId);
  const letters = (await listDeadLetters(settings, CONSUMER)).filter(
    (l) =>
      (l.eventType === 'OrderPaid' && l.key === orderId) ||
      (l.eventType === 'FulfillmentDone' && l.key === fulfillmentId),
  );
  const types = new Set(letters.map((l) => l.eventType));
  return { letters, complete: types.has('OrderPaid') && types.has('FulfillmentDone') };
}

function describeLetters(letters: DeadLetterView[], say: (line: string) => void): void {
  const codes = [...new Set(letters.map((l) => l.errorCode))].join(', ');
  say(`  ${CONSUMER} dead-lettered ${letters.length} events (GET /inbox/dead-letters), ${codes}:`);
  say(`    ${letters.map((l) => `${l.eventKey} at ${l.partition}@${l.offset}`).join(', ')}`);
  for (const error of new Set(letters.map((l) => firstClause(l.error)))) say(`    ${error}`);
}

/** Dry run, the fix, then the replay: each through the operator API but the fix. */
async function replayAfterTheFix(
  settings: DemoSettings,
  drill: DeadLetterDrill,
  say: (line: string) => void,
): Promise<void> {
  const reason = `${drill.currency} opened in the ledger`;
  const dry = await replayDeadLetters(settings, CONSUMER, drill.deadLettered, {
    dryRun: true,
    reason,
  });
  drill.wouldReplay = dry.wouldReplay?.length ?? 0;
  drill.retryTopic = dry.wouldReplay?.[0]?.targetTopic ?? null;
  say(`  dry run: ${drill.wouldReplay} would be replayed, to ${drill.retryTopic}`);

  await openLedgerCurrency(settings, drill.currency);
  say(`  the fix: ${drill.currency} opened in the ledger (a row in t_ledger_currency)`);

  const done = await replayDeadLetters(settings, CONSUMER, drill.deadLettered, {
    dryRun: false,
    reason,
  });
  drill.replayed = done.replayed.length;
  say(`  replayed ${drill.replayed} (POST /inbox/dead-letters/replay), waiting until booked…`);
}

/** Adds the row finance adds to open a currency; the ledger sees it at its next booking. */
async function openLedgerCurrency(settings: DemoSettings, currency: string): Promise<void> {
  const connection = await createConnection({
    uri: `${settings.mysqlUrl}/${settings.databasePrefix}accounting_service`,
  });
  try {
    await connection.query(
      'INSERT INTO t_ledger_currency (currency, opened_at) VALUES (?, NOW(3))',
      [currency],
    );
  } finally {
    await connection.end();
  }
}

function journalsBooked(o: OrderState): boolean {
  return (o.journals.PAYMENT ?? 0) >= 1 && (o.journals.COUPON_GRANT ?? 0) >= 1;
}

/** `LEDGER_CURRENCY_NOT_OPEN: the ledger is not open in CHF` of the longer error text. */
function firstClause(error: string | null): string {
  return (error ?? 'no error text').split(': ').slice(0, 2).join(': ');
}
