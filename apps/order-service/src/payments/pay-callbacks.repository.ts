import { Injectable } from '@nestjs/common';
import { Queryable, Statement } from '@outbox-inbox/database';
import { PayCallbackVerdict, PayCallbackVerdictOf } from './pay-callback-outcome';
import { NotificationDecision } from './repeat-notification';

/** A verified callback: what it said, what we answered, and when it was signed and received. */
export interface PayCallbackRecord extends NotificationDecision, PayCallbackVerdictOf {
  notifyId: string;
  signedAt: Date;
  receivedAt: Date;
}

/** A recorded callback as an order's timeline shows it. */
export interface PayCallbackView {
  notifyId: string;
  payOrderId: string;
  amount: number;
  currency: string;
  /** SUCCESS or FAILED, as the provider notified it. */
  notifiedStatus: 'SUCCESS' | 'FAILED';
  verdict: PayCallbackVerdict;
  /** The HTTP status we answered. */
  answerStatus: number;
  detail: string | null;
  signedAt: string;
  receivedAt: string;
}

interface CallbackRow {
  notify_id: string;
  pay_order_id: string;
  amount: string | number;
  currency: string;
  notified_status: 'SUCCESS' | 'FAILED';
  verdict: PayCallbackVerdict;
  answer_status: string | number;
  detail: string | null;
  signed_at: Date;
  received_at: Date;
}

/** t_pay_callback: the verified callbacks of each order, for its timeline. */
@Injectable()
export class PayCallbacksRepository {
  /**
   * Records a callback in the caller's transaction, as a statement for runStatements. It
   * records nothing when the order does not exist (INSERT … SELECT from t_order, a consistent
   * read that locks nothing under READ COMMITTED): a callback of no order has no timeline.
   */
  insertStatement(record: PayCallbackRecord): Statement {
    return {
      sql: `INSERT INTO t_pay_callback (order_id, notify_id, pay_order_id, amount, currency,
         notified_status, verdict, answer_status, detail, signed_at, received_at)
       SELECT id, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM t_order WHERE id = ?`,
      params: [
        record.notifyId,
        record.payOrderId,
        record.amount,
        record.currency,
        record.status,
        record.verdict,
        record.answerStatus,
        record.detail.slice(0, 200),
        record.signedAt,
        record.receivedAt,
        record.orderId,
      ],
      read: () => undefined,
    };
  }

  /** The order's recorded callbacks, in the order they arrived. */
  async listOfOrder(queryable: Queryable, orderId: string): Promise<PayCallbackView[]> {
    const rows = (await queryable.query(
      `SELECT notify_id, pay_order_id, amount, currency, notified_status, verdict, answer_status,
         detail, signed_at, received_at
       FROM t_pay_callback WHERE order_id = ? ORDER BY id`,
      [orderId],
    )) as CallbackRow[];
    return rows.map((r) => ({
      notifyId: r.notify_id,
      payOrderId: r.pay_order_id,
      amount: Number(r.amount),
      currency: r.currency,
      notifiedStatus: r.notified_status,
      verdict: r.verdict,
      answerStatus: Number(r.answer_status),
      detail: r.detail,
      signedAt: new Date(r.signed_at).toISOString(),
      receivedAt: new Date(r.received_at).toISOString(),
    }));
  }
}
