import { expectOk, mapConcurrently, requestJson } from './http-json';
import { DemoSettings, opsHeaders } from './demo-settings';
import { DEMO_CONSUMERS, DeadLetterView, DemoConsumer, listDeadLetters } from './inbox-api';

/** One inbox row as GET /orders/:id/timeline shows it. */
interface InboxRow {
  eventKey: string;
  outcome: string;
  duplicateCount: number;
}

/** What the services hold about one order of the run, read from its timeline. */
export interface OrderState {
  id: string;
  status: string;
  /** How many transitions moved it to PAID (one, or the chain did something twice). */
  paidTransitions: number;
  fulfillmentId: string | null;
  fulfillmentStatus: string | null;
  /** Calls to the coupon provider the fulfillment needed (1 when no reply was lost). */
  couponAttempts: number;
  couponCode: string | null;
  /** Journals booked for the order, by kind (PAYMENT, COUPON_GRANT, ...). */
  journals: Record<string, number>;
  /** Outbox rows of the order and of its fulfillment that are not SENT yet. */
  unsent: number;
  inbox: Record<DemoConsumer, InboxRow[]>;
  /** A peer section the timeline could not read ('' when all were read). */
  unavailable: string;
}

/** The run as the services tell it. */
export interface RunState {
  orders: OrderState[];
  deadLetters: Record<DemoConsumer, DeadLetterView[]>;
  ledger: { clean: boolean; mismatches: number };
}

interface TimelineBody {
  order: { status: string };
  sections: {
    order: { transitions: Array<{ status: string }>; outbox: Array<{ status: string }> };
    fulfillment: PeerSection<{
      fulfillment: {
        id: string;
        status: string;
        attempts: number;
        couponCode: string | null;
      } | null;
      outbox: Array<{ status: string }>;
      inbox: InboxRow[];
    }>;
    accounting: PeerSection<{
      ledger: { journals: Array<{ kind: string }> } | null;
      inbox: InboxRow[];
    }>;
  };
}
type PeerSection<T> = { status: 'ok'; data: T } | { status: 'unavailable'; error: string };

/** Reads every order of the run from its timeline, and the consumers' dead letters. */
export async function readRunState(settings: DemoSettings, orderIds: string[]): Promise<RunState> {
  const orders = await mapConcurrently(orderIds, 8, (id) => readOrder(settings, id));
  const keys = new Set(
    orders.flatMap((o) => [o.id, ...(o.fulfillmentId ? [o.fulfillmentId] : [])]),
  );
  const deadLetters = {} as RunState['deadLetters'];
  for (const consumer of DEMO_CONSUMERS) {
    const letters = await listDeadLetters(settings, consumer);
    deadLetters[consumer] = letters.filter((l) => l.key !== null && keys.has(l.key));
  }
  const reconciliation = await expectOk<{ clean: boolean; mismatches: unknown[] }>(
    requestJson(`${settings.urls.accounting}/ledger/reconciliation`, {
      headers: opsHeaders(settings),
    }),
    'ledger reconciliation',
  );
  return {
    orders,
    deadLetters,
    ledger: { clean: reconciliation.clean, mismatches: reconciliation.mismatches.length },
  };
}

/** What the services hold about one order, read from its timeline. */
export async function readOrder(settings: DemoSettings, id: string): Promise<OrderState> {
  const t = await expectOk<TimelineBody>(
    requestJson(`${settings.urls.opsConsole}/orders/${id}/timeline`, {
      headers: opsHeaders(settings),
    }),
    `timeline of order ${id}`,
  );
  const { fulfillment, accounting } = t.sections;
  const f = fulfillment.status === 'ok' ? fulfillment.data : undefined;
  const a = accounting.status === 'ok' ? accounting.data : undefined;
  const journals: Record<string, number> = {};
  for (const j of a?.ledger?.journals ?? []) journals[j.kind] = (journals[j.kind] ?? 0) + 1;
  const unsent = [...t.sections.order.outbox, ...(f?.outbox ?? [])].filter(
    (r) => r.status !== 'SENT',
  ).length;
  return {
    id,
    status: t.order.status,
    paidTransitions: t.sections.order.transitions.filter((x) => x.status === 'PAID').length,
    fulfillmentId: f?.fulfillment?.id ?? null,
    fulfillmentStatus: f?.fulfillment?.status ?? null,
    couponAttempts: f?.fulfillment?.attempts ?? 0,
    couponCode: f?.fulfillment?.couponCode ?? null,
    journals,
    unsent,
    inbox: { 'fulfillment-service': f?.inbox ?? [], 'accounting-service': a?.inbox ?? [] },
    unavailable: [fulfillment, accounting]
      .map((s, i) => (s.status === 'ok' ? '' : `${['fulfillment', 'accounting'][i]}: ${s.error}`))
      .filter(Boolean)
      .join('; '),
  };
}

/**
 * True while something of the order is still on its way: an outbox row not sent yet, a
 * fulfillment still granting, or a service that could not be asked.
 */
export function orderInFlight(o: OrderState): boolean {
  return o.unavailable !== '' || o.unsent > 0 || o.fulfillmentStatus === 'INIT';
}

/** True when the order went all the way: paid, fulfilled, booked, all sent. */
export function orderAtRest(o: OrderState): boolean {
  return (
    o.unavailable === '' &&
    o.status === 'PAID' &&
    o.fulfillmentStatus === 'DONE' &&
    (o.journals.PAYMENT ?? 0) >= 1 &&
    (o.journals.COUPON_GRANT ?? 0) >= 1 &&
    o.unsent === 0
  );
}

/**
 * Per consumer: what became of every delivery of the run's events. Each delivery was absorbed
 * as a duplicate, recorded as applied, ignored or waiting (parked or stale), or dead-lettered:
 * `deliveries` is their sum. A dead-lettered delivery writes no inbox row; its replay, once
 * applied, is a delivery of its own.
 */
export interface ConsumerTally {
  deliveries: number;
  duplicatesAbsorbed: number;
  /** Events whose handler ran and wrote its effect. */
  effectsApplied: number;
  /** Events of a type this consumer has no handler for: recorded, and passed by. */
  ignored: number;
  /** Events parked until their predecessor comes, or stale: none once a run is at rest. */
  waiting: number;
  /** Distinct events taken in (one inbox row each). */
  events: number;
  deadLetters: number;
}

/** Sums a consumer's inbox rows and dead letters over the run's orders. */
export function tallyConsumer(state: RunState, consumer: DemoConsumer): ConsumerTally {
  const rows = new Map<string, InboxRow>();
  for (const o of state.orders) for (const r of o.inbox[consumer]) rows.set(r.eventKey, r);
  const outcomes: Record<string, number> = {};
  let duplicates = 0;
  for (const r of rows.values()) {
    duplicates += r.duplicateCount;
    outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
  }
  const deadLetters = state.deadLetters[consumer].length;
  return {
    deliveries: rows.size + duplicates + deadLetters,
    duplicatesAbsorbed: duplicates,
    effectsApplied: outcomes.applied ?? 0,
    ignored: outcomes.ignored ?? 0,
    waiting: rows.size - (outcomes.applied ?? 0) - (outcomes.ignored ?? 0),
    events: rows.size,
    deadLetters,
  };
}
