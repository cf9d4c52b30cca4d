import type { OutboxStatus } from '@outbox-inbox/outbox';
import {
  ConsumerFacts,
  FulfillmentFacts,
  OrderBatch,
  OrderFacts,
  OutboxFacts,
} from '../order-batch';
import { dateOrNull, num, Row, str, strOrNull } from './database-snapshot';
import { ConsumerState, DeploymentSnapshot } from './deployment-snapshot';

/**
 * Gathers what every service holds about one page of orders (rows from t_order), each
 * through an index: their history, fulfillments, coupons, journals, retained outbox rows,
 * and each consumer's gate, inbox rows and parked events for their aggregates.
 */
export async function loadOrderBatch(
  deployment: DeploymentSnapshot,
  orderRows: Row[],
): Promise<OrderBatch> {
  const ids = orderRows.map((r) => str(r.id));
  // Each database has its own connection: what one page needs from each is asked at once.
  const [history, fulfillmentRows, journalRows] = await Promise.all([
    deployment.order.query(
      `SELECT order_id, version, event_type FROM t_order_transition WHERE order_id IN (?)
       ORDER BY order_id, version`,
      [ids],
    ),
    deployment.fulfillment.query(
      `SELECT id, order_id, status, grant_key, coupon_code, coupon_value, currency, event_version,
         next_attempt_at FROM t_fulfillment WHERE order_id IN (?)`,
      [ids],
    ),
    deployment.accounting.query(
      `SELECT id, kind, order_id, source_event_key, currency, total_debit FROM t_journal
       WHERE order_id IN (?)`,
      [ids],
    ),
  ]);
  const historyOf = new Map<string, OrderFacts['history']>();
  for (const h of history) {
    const list = historyOf.get(str(h.order_id)) ?? [];
    list.push({ version: num(h.version), eventType: str(h.event_type) });
    historyOf.set(str(h.order_id), list);
  }
  const orders: OrderFacts[] = orderRows.map((r) => ({
    id: str(r.id),
    status: str(r.status),
    amount: num(r.amount),
    currency: str(r.currency),
    paidAt: dateOrNull(r.paid_at),
    history: historyOf.get(str(r.id)) ?? [],
  }));
  const fulfillments = fulfillmentRows.map(toFulfillment);
  const fulfillmentIds = fulfillments.map((f) => f.id);
  const grantKeys = fulfillments.map((f) => f.grantKey).filter((k) => k !== '');
  const journals = journalRows.map((r) => ({
    id: str(r.id),
    kind: str(r.kind),
    orderId: str(r.order_id),
    sourceEventKey: str(r.source_event_key),
    currency: str(r.currency),
    totalDebit: num(r.total_debit),
  }));
  const aggregateIds: Record<string, string[]> = { Order: ids, Fulfillment: fulfillmentIds };
  const eventKeys = [
    ...orders.flatMap((o) => o.history.map((e) => `${e.eventType}:${o.id}:${e.version}`)),
    ...fulfillments.flatMap((f) =>
      ['FulfillmentDone', 'FulfillmentReverted']
        .slice(0, f.eventVersion)
        .map((type, i) => `${type}:${f.id}:${i + 1}`),
    ),
  ];
  const [couponRows, orderOutbox, fulfillmentOutbox, ...consumers] = await Promise.all([
    whenAny(grantKeys, (keys) =>
      deployment.coupons.query(
        `SELECT coupon_code, idempotency_key, order_id, status FROM t_coupon
         WHERE idempotency_key IN (?)`,
        [keys],
      ),
    ),
    outboxOf(deployment, 'order-service', 'Order', ids),
    outboxOf(deployment, 'fulfillment-service', 'Fulfillment', fulfillmentIds),
    ...deployment.consumers.map((c) => consumerFacts(c, aggregateIds, eventKeys)),
  ]);
  const coupons = couponRows.map((r) => ({
    couponCode: str(r.coupon_code),
    idempotencyKey: str(r.idempotency_key),
    orderId: str(r.order_id),
    status: str(r.status),
  }));
  const outbox = [...orderOutbox, ...fulfillmentOutbox];
  return { orders, fulfillments, coupons, journals, outbox, consumers };
}

/** One consumer's gate, parked events and inbox rows for the aggregates and events of a page. */
async function consumerFacts(
  c: ConsumerState,
  aggregateIds: Record<string, string[]>,
  eventKeys: string[],
): Promise<ConsumerFacts> {
  const facts: ConsumerFacts = {
    name: c.name,
    aggregateTypes: c.aggregateTypes,
    pruned: c.prunedBefore !== null,
    gates: new Map(),
    inbox: new Map(),
    parked: [],
    skipped: new Set(),
  };
  const skips = await c.db.hasTable('t_inbox_skip');
  for (const type of c.aggregateTypes) {
    const idsOfType = aggregateIds[type];
    if (idsOfType.length === 0) continue;
    const gates = await c.db.query(
      `SELECT aggregate_id, last_version, parked_count FROM t_inbox_version
       WHERE consumer = ? AND aggregate_type = ? AND aggregate_id IN (?)`,
      [c.name, type, idsOfType],
    );
    for (const g of gates)
      facts.gates.set(`${type}:${str(g.aggregate_id)}`, {
        lastVersion: num(g.last_version),
        parkedCount: num(g.parked_count),
      });
    const parked = await c.db.query(
      `SELECT aggregate_id, aggregate_version, event_key FROM t_inbox_parked
       WHERE consumer = ? AND aggregate_type = ? AND aggregate_id IN (?)`,
      [c.name, type, idsOfType],
    );
    for (const p of parked)
      facts.parked.push({
        aggregate: `${type}:${str(p.aggregate_id)}`,
        version: num(p.aggregate_version),
        eventKey: str(p.event_key),
      });
    if (skips)
      for (const s of await c.db.query(
        `SELECT aggregate_id, aggregate_version FROM t_inbox_skip
         WHERE consumer = ? AND aggregate_type = ? AND aggregate_id IN (?)`,
        [c.name, type, idsOfType],
      ))
        facts.skipped.add(`${type}:${str(s.aggregate_id)}@${num(s.aggregate_version)}`);
  }
  const inbox = await whenAny(eventKeys, (keys) =>
    c.db.query('SELECT event_key, outcome FROM t_inbox WHERE consumer = ? AND event_key IN (?)', [
      c.name,
      keys,
    ]),
  );
  for (const r of inbox) facts.inbox.set(str(r.event_key), str(r.outcome));
  return facts;
}

function toFulfillment(r: Row): FulfillmentFacts {
  return {
    id: str(r.id),
    orderId: str(r.order_id),
    status: str(r.status),
    grantKey: str(r.grant_key),
    couponCode: strOrNull(r.coupon_code),
    couponValue: num(r.coupon_value),
    currency: str(r.currency),
    eventVersion: num(r.event_version),
    nextAttemptAt: dateOrNull(r.next_attempt_at),
  };
}

async function outboxOf(
  deployment: DeploymentSnapshot,
  service: 'order-service' | 'fulfillment-service',
  aggregateType: string,
  ids: string[],
): Promise<OutboxFacts[]> {
  const db = service === 'order-service' ? deployment.order : deployment.fulfillment;
  const rows = await whenAny(ids, (some) =>
    db.query(
      `SELECT id, event_key, event_type, aggregate_type, aggregate_id, aggregate_version, status
       FROM t_outbox WHERE aggregate_type = ? AND aggregate_id IN (?)`,
      [aggregateType, some],
    ),
  );
  return rows.map((r) => ({
    service,
    id: str(r.id),
    eventKey: str(r.event_key),
    eventType: str(r.event_type),
    aggregateType: str(r.aggregate_type),
    aggregateId: str(r.aggregate_id),
    aggregateVersion: num(r.aggregate_version),
    status: str(r.status) as OutboxStatus,
  }));
}

/** Runs an IN (…) query only when there is something to ask for (IN () is not SQL). */
async function whenAny(values: string[], query: (values: string[]) => Promise<Row[]>) {
  return values.length === 0 ? [] : query(values);
}
