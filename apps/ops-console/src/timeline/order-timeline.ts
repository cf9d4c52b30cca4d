import { PeerSection } from './peer-client';
import {
  CouponGrantView,
  FulfillmentTimelineView,
  InboxDeliveryView,
  LedgerTimelineView,
  OrderTransitionView,
  OrderView,
  OutboxRowView,
  PayCallbackView,
} from './peer-views';

/** The services, one lane each in the picture. */
export type TimelineLane =
  'order-service' | 'fulfillment-service' | 'coupon-provider' | 'accounting-service';

/** One point of the causal chain. */
export interface TimelineEvent {
  at: string;
  lane: TimelineLane;
  kind:
    | 'callback'
    | 'transition'
    | 'outbox'
    | 'published'
    | 'dead'
    | 'inbox'
    | 'duplicate'
    | 'skipped'
    | 'coupon'
    | 'journal';
  title: string;
  detail?: string;
  /** The event's key on published, dead and received points: what ties a publish to its receives. */
  eventKey?: string;
}

/** GET /orders/:id/timeline: every service's records of one order, and them merged in time. */
export interface OrderTimeline {
  orderId: string;
  generatedAt: string;
  order: OrderView;
  sections: {
    order: {
      /** The pay callbacks whose signature verified, in the order they arrived. */
      callbacks: PayCallbackView[];
      transitions: OrderTransitionView[];
      outbox: OutboxRowView[];
    };
    fulfillment: PeerSection<FulfillmentTimelineView>;
    coupon: PeerSection<CouponGrantView | null>;
    accounting: PeerSection<LedgerTimelineView>;
  };
  /** Everything above as points in time, oldest first. */
  events: TimelineEvent[];
}

/** Flattens the sections into time-ordered events; unavailable sections contribute none. */
export function timelineEvents(sections: OrderTimeline['sections']): TimelineEvent[] {
  // Callbacks first: at equal times, an accepted callback comes before the transition it made.
  const events: TimelineEvent[] = sections.order.callbacks.map(callbackEvent);
  for (const t of sections.order.transitions) {
    events.push({
      at: t.occurredAt,
      lane: 'order-service',
      kind: 'transition',
      title: `order ${t.status}`,
      detail: `v${t.version} ${t.eventType}${t.cause ? ` (cause ${t.cause})` : ''}`,
    });
  }
  events.push(...outboxEvents('order-service', sections.order.outbox));
  if (sections.fulfillment.status === 'ok') {
    const f = sections.fulfillment.data;
    for (const t of f.transitions) {
      events.push({
        at: t.occurredAt,
        lane: 'fulfillment-service',
        kind: 'transition',
        title: `fulfillment ${t.status}`,
        detail: `v${t.version}, attempts ${t.attempts}${t.lastError ? `, ${t.lastError}` : ''}`,
      });
    }
    events.push(...outboxEvents('fulfillment-service', f.outbox));
    events.push(...inboxEvents('fulfillment-service', f.inbox));
  }
  if (sections.coupon.status === 'ok' && sections.coupon.data) {
    const c = sections.coupon.data;
    events.push({
      at: c.grantedAt,
      lane: 'coupon-provider',
      kind: 'coupon',
      title: `coupon ${c.couponCode} granted`,
      detail: `${c.value} ${c.currency}, key ${c.idempotencyKey}`,
    });
    if (c.revokedAt) {
      events.push({
        at: c.revokedAt,
        lane: 'coupon-provider',
        kind: 'coupon',
        title: `coupon ${c.couponCode} revoked`,
      });
    }
  }
  if (sections.accounting.status === 'ok') {
    const a = sections.accounting.data;
    events.push(...inboxEvents('accounting-service', a.inbox));
    for (const j of a.ledger?.journals ?? []) {
      events.push({
        at: j.createdAt,
        lane: 'accounting-service',
        kind: 'journal',
        title: `journal ${j.kind} #${j.id}`,
        detail: `${j.total} ${j.currency}: ${j.lines
          .map((l) => `${l.accountCode} ${l.debit !== '0' ? `Dr ${l.debit}` : `Cr ${l.credit}`}`)
          .join(', ')}`,
      });
    }
  }
  // Stable: at equal times, the order above (cause before effect within a service) holds.
  return events
    .map((event, index) => ({ event, index }))
    .sort((a, b) => a.event.at.localeCompare(b.event.at) || a.index - b.index)
    .map(({ event }) => event);
}

function callbackEvent(c: PayCallbackView): TimelineEvent {
  const answered = c.verdict === 'accepted' ? `: ${c.notifiedStatus}` : ` (${c.answerStatus})`;
  const ahead = Math.round((Date.parse(c.receivedAt) - Date.parse(c.signedAt)) / 1000);
  return {
    at: c.receivedAt,
    lane: 'order-service',
    kind: 'callback',
    title: `pay callback ${c.verdict}${answered}`,
    detail:
      `notifyId ${c.notifyId}, payment ${c.payOrderId}, ${c.notifiedStatus} ${c.amount} ` +
      `${c.currency} (minor units); signed ${ahead} s before it arrived; answered ` +
      `${c.answerStatus}${c.detail ? ` (${c.detail})` : ''}`,
  };
}

function outboxEvents(lane: TimelineLane, rows: OutboxRowView[]): TimelineEvent[] {
  return rows.flatMap((r): TimelineEvent[] => {
    const name = `${r.eventType} v${r.aggregateVersion}`;
    const written: TimelineEvent = {
      at: r.createdAt,
      lane,
      kind: 'outbox',
      title: `outbox ${name} written`,
      detail: `row ${r.id}, now ${r.status}, attempts ${r.retryCount}`,
    };
    if (r.sentAt) {
      return [
        written,
        {
          at: r.sentAt,
          lane,
          kind: 'published',
          title: `${name} published`,
          detail: r.status,
          eventKey: r.eventKey,
        },
      ];
    }
    if (r.status === 'DEAD') {
      const detail = r.lastError ?? undefined;
      const dead: TimelineEvent = {
        at: r.updatedAt,
        lane,
        kind: 'dead',
        title: `${name} DEAD`,
        detail,
        eventKey: r.eventKey,
      };
      return [written, dead];
    }
    return [written];
  });
}

function inboxEvents(lane: TimelineLane, rows: InboxDeliveryView[]): TimelineEvent[] {
  return rows.flatMap((r): TimelineEvent[] => {
    if (r.outcome === 'skipped') {
      // A version an operator skipped on purpose (POST /inbox/gaps/skip), with the reason.
      const title = `${r.eventType} skipped by ${r.consumer}`;
      return [{ at: r.processedAt, lane, kind: 'skipped', title, detail: r.reason }];
    }
    const received: TimelineEvent = {
      at: r.processedAt,
      lane,
      kind: 'inbox',
      title: `${r.eventType} received: ${r.outcome}`,
      detail: r.eventKey,
      eventKey: r.eventKey,
    };
    if (r.duplicateCount === 0 || !r.lastDuplicateAt) return [received];
    const duplicate: TimelineEvent = {
      at: r.lastDuplicateAt,
      lane,
      kind: 'duplicate',
      title: `${r.duplicateCount} duplicate${r.duplicateCount > 1 ? 's' : ''} of ${r.eventType} absorbed`,
      detail: r.eventKey,
    };
    return [received, duplicate];
  });
}
