import { Pool } from 'mysql2/promise';
import { spread, Spread } from '../lib/stats';

/** Where the time between a callback and its journal goes, from the rows' own timestamps. */
export interface StageTimes {
  /** OrderPaid outbox row written (the callback's commit) → the relay marked it SENT. */
  relay: Spread;
  /** Marked SENT → the accounting-service booked the journal (broker + consumer + booking). */
  consume: Spread;
  /** Last SENT and last journal, epoch ms: where a burst's throughput is bound. */
  lastSentMs: number;
  lastBookedMs: number;
}

/**
 * Reads the OrderPaid rows of `orderIds` from the order-service's outbox and their payment
 * journals from the accounting database. All services stamp times from the same host clock.
 */
export async function stageTimes(
  orderDb: Pool,
  accountingDb: Pool,
  orderIds: string[],
): Promise<StageTimes> {
  const [events] = await orderDb.query(
    "SELECT aggregate_id, created_at, sent_at FROM t_outbox WHERE event_type = 'OrderPaid' AND aggregate_id IN (?)",
    [orderIds],
  );
  const [journals] = await accountingDb.query(
    "SELECT order_id, created_at FROM t_journal WHERE kind = 'PAYMENT' AND order_id IN (?)",
    [orderIds],
  );
  const booked = new Map(
    (journals as Array<{ order_id: string; created_at: Date }>).map((j) => [
      j.order_id,
      j.created_at.getTime(),
    ]),
  );
  const relay: number[] = [];
  const consume: number[] = [];
  let lastSentMs = 0;
  for (const e of events as Array<{
    aggregate_id: string;
    created_at: Date;
    sent_at: Date | null;
  }>) {
    if (!e.sent_at) continue;
    relay.push(e.sent_at.getTime() - e.created_at.getTime());
    lastSentMs = Math.max(lastSentMs, e.sent_at.getTime());
    const journal = booked.get(e.aggregate_id);
    if (journal !== undefined) consume.push(journal - e.sent_at.getTime());
  }
  return {
    relay: spread(relay),
    consume: spread(consume),
    lastSentMs,
    lastBookedMs: Math.max(0, ...booked.values()),
  };
}
