import { createEnvelope, envelopeHeaders } from '@outbox-inbox/messaging';
import { OrderCancelledV1 } from '@app/trading-events';
import { waitFor } from '@outbox-inbox/test-kit';
import { requestJson } from '../../scripts/demo/http-json';
import { createConnection } from 'mysql2/promise';
import { MYSQL_URL, ServiceDatabase, TradingStack } from './trading-stack';

const DAY_MS = 24 * 3_600_000;

/** The time columns each database's retention or history reads, shifted together. */
const CLOCKS: Record<ServiceDatabase, Record<string, string[]>> = {
  order_service: {
    t_order: ['created_at', 'updated_at', 'paid_at', 'cancelled_at'],
    t_order_transition: ['occurred_at'],
    t_outbox: ['created_at', 'updated_at', 'sent_at', 'next_retry_at'],
  },
  fulfillment_service: {
    t_fulfillment: ['created_at', 'updated_at'],
    t_outbox: ['created_at', 'updated_at', 'sent_at', 'next_retry_at'],
    t_inbox: ['processed_at'],
  },
  accounting_service: {
    t_journal: ['occurred_at', 'created_at'],
    t_inbox: ['processed_at'],
  },
  coupon_provider: { t_coupon: ['granted_at', 'revoked_at'] },
};

/**
 * What a deployment lives through over weeks, driven through the services' own code paths
 * where they have one (HTTP, the relay, the consumers, the prune and replay endpoints), and
 * written with the services' own shapes where they have none (a refund of a paid order).
 */
export class DeploymentHistory {
  constructor(private readonly chain: TradingStack) {}

  /** Every row written so far ages by `days`, as if the weeks had passed. */
  async age(days: number): Promise<void> {
    for (const [database, tables] of Object.entries(CLOCKS))
      for (const [table, columns] of Object.entries(tables))
        await this.chain.query(
          database as ServiceDatabase,
          `UPDATE ${table} SET ${columns
            .map((c) => `${c} = ${c} - INTERVAL ${days} DAY`)
            .join(', ')}`,
        );
  }

  /** Retention as the services run it: inbox rows past the dedup window, SENT outbox rows. */
  async prune(olderThanDays = 7): Promise<void> {
    for (const service of ['fulfillment-service', 'accounting-service'] as const) {
      const pruned = await requestJson(`${this.chain.url(service)}/inbox/prune`, {
        body: {},
        headers: this.chain.opsHeaders,
      });
      expect(pruned.status).toBe(200);
    }
    for (const service of ['order-service', 'fulfillment-service'] as const) {
      const pruned = await requestJson(`${this.chain.url(service)}/outbox/prune`, {
        body: { olderThanMs: olderThanDays * DAY_MS },
        headers: this.chain.opsHeaders,
      });
      expect(pruned.status).toBe(200);
    }
  }

  /** Opens `count` orders, pays the first `paid`, cancels the rest while their payment runs. */
  async trade(count: number, paid: number): Promise<{ paid: string[]; cancelled: string[] }> {
    const orders = await this.chain.openOrders(count);
    expect(await this.chain.pay(orders.slice(0, paid))).toEqual(
      orders.slice(0, paid).map(() => 200),
    );
    for (const order of orders.slice(paid)) {
      const cancelled = await requestJson(
        `${this.chain.url('order-service')}/orders/${order.id}/cancel`,
        { body: { reason: 'changed my mind' } },
      );
      expect(cancelled.status).toBe(200);
    }
    return {
      paid: orders.slice(0, paid).map((o) => o.id),
      cancelled: orders.slice(paid).map((o) => o.id),
    };
  }

  /**
   * A paid order cancelled and refunded, as a refund tool of the order service would write it:
   * the order CANCELLED at its next version, its transition and its OrderCancelled outbox row
   * in one transaction. The relay, fulfillment (revoking the coupon) and the ledger (booking the
   * refund and the reversal) do the rest.
   */
  async refund(orderId: string): Promise<void> {
    const [order] = await this.chain.query<{ user_id: string; version: number }>(
      'order_service',
      "SELECT user_id, version FROM t_order WHERE id = ? AND status = 'PAID'",
      [orderId],
    );
    const version = Number(order.version) + 1;
    const envelope = createEnvelope(OrderCancelledV1, {
      aggregateId: orderId,
      aggregateVersion: version,
      payload: {
        orderId,
        userId: order.user_id,
        reason: 'refunded on request',
        cancelledAt: new Date().toISOString(),
      },
    });
    const connection = await createConnection({
      uri: `${MYSQL_URL}/${this.chain.prefix}order_service`,
    });
    try {
      await connection.beginTransaction();
      await connection.query(
        `UPDATE t_order SET status = 'CANCELLED', version = ?, close_reason = 'refunded on request',
           cancelled_at = UTC_TIMESTAMP(3), updated_at = UTC_TIMESTAMP(3) WHERE id = ?`,
        [version, orderId],
      );
      await connection.query(
        `INSERT INTO t_order_transition (order_id, version, status, event_type, cause, occurred_at)
         VALUES (?, ?, 'CANCELLED', 'OrderCancelled', 'refund', UTC_TIMESTAMP(3))`,
        [orderId, version],
      );
      await connection.query(
        `INSERT INTO t_outbox (aggregate_type, aggregate_id, aggregate_version, event_type,
           event_key, event_id, payload, headers, status, next_retry_at, created_at, updated_at)
         VALUES ('Order', ?, ?, 'OrderCancelled', ?, ?, ?, ?, 'NEW', UTC_TIMESTAMP(3),
           UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))`,
        [
          orderId,
          version,
          envelope.eventKey,
          envelope.eventId,
          JSON.stringify(envelope),
          JSON.stringify(envelopeHeaders(envelope)),
        ],
      );
      await connection.commit();
    } finally {
      await connection.end();
    }
  }

  /**
   * Waits until the chain has caught up with `orders`: fulfillments granted (reverted for the
   * refunded), cancellation markers written, journals booked, every cancel seen by the ledger,
   * both outboxes drained.
   */
  async settled(orders: {
    paid: string[];
    cancelled: string[];
    refunded: string[];
  }): Promise<void> {
    const { paid, cancelled, refunded } = orders;
    const counts: Array<[ServiceDatabase, string, number]> = [
      [
        'fulfillment_service',
        "SELECT COUNT(*) AS n FROM t_fulfillment WHERE status = 'DONE'",
        paid.length,
      ],
      [
        'fulfillment_service',
        "SELECT COUNT(*) AS n FROM t_fulfillment WHERE status = 'REVERTED'",
        refunded.length,
      ],
      [
        'fulfillment_service',
        "SELECT COUNT(*) AS n FROM t_fulfillment WHERE status = 'CANCELLED'",
        cancelled.length,
      ],
      [
        'accounting_service',
        "SELECT COUNT(*) AS n FROM t_journal WHERE kind = 'PAYMENT'",
        paid.length + refunded.length,
      ],
      [
        'accounting_service',
        "SELECT COUNT(*) AS n FROM t_journal WHERE kind = 'COUPON_GRANT'",
        paid.length + refunded.length,
      ],
      [
        'accounting_service',
        "SELECT COUNT(*) AS n FROM t_journal WHERE kind IN ('REFUND', 'COUPON_REVOKE')",
        2 * refunded.length,
      ],
      [
        'accounting_service',
        "SELECT COUNT(*) AS n FROM t_inbox_version WHERE aggregate_type = 'Order' AND consumer = 'accounting-service' AND last_version >= 3",
        paid.length + refunded.length + cancelled.length,
      ],
      ['order_service', "SELECT COUNT(*) AS n FROM t_outbox WHERE status IN ('NEW', 'SENDING')", 0],
      [
        'fulfillment_service',
        "SELECT COUNT(*) AS n FROM t_outbox WHERE status IN ('NEW', 'SENDING')",
        0,
      ],
    ];
    await waitFor(
      async () => {
        for (const [database, sql, expected] of counts)
          if ((await this.chain.count(database, sql)) !== expected) return false;
        return true;
      },
      { timeoutMs: 90_000, description: 'the chain caught up with every order' },
    );
  }

  /** The coupon provider answers every request 503 (`errorRate` 1) or none (0). */
  async providerFailing(errorRate: 0 | 1): Promise<void> {
    const set = await requestJson(`${this.chain.url('coupon-provider')}/faults`, {
      method: 'PUT',
      body: { errorRate },
      headers: this.chain.opsHeaders,
    });
    expect(set.status).toBe(200);
  }

  async deadLetters(service: 'fulfillment-service' | 'accounting-service'): Promise<unknown[]> {
    const listed = await requestJson<unknown[]>(`${this.chain.url(service)}/inbox/dead-letters`, {
      headers: this.chain.opsHeaders,
    });
    return listed.body;
  }

  async replayDeadLetters(service: 'fulfillment-service' | 'accounting-service'): Promise<void> {
    const replayed = await requestJson(`${this.chain.url(service)}/inbox/dead-letters/replay`, {
      body: { all: true },
      headers: this.chain.opsHeaders,
    });
    expect(replayed.status).toBe(200);
  }
}
