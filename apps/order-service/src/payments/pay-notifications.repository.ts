import { Injectable } from '@nestjs/common';
import { Statement } from '@outbox-inbox/database';
import { PayCallbackAnswer } from './pay-callback.dto';
import { NotificationDecision } from './repeat-notification';

/** A provider notification we processed: the fields the decision used and the answer we gave. */
export interface ProcessedNotification extends NotificationDecision {
  notifyId: string;
  changedOrder: boolean;
  answer: PayCallbackAnswer;
}

interface NotificationRow {
  order_id: string;
  pay_order_id: string;
  amount: number | string;
  currency: string;
  status: 'SUCCESS' | 'FAILED';
  changed_order: number;
  answer: string | object;
}

/** t_pay_notification, always through the caller's transaction. */
@Injectable()
export class PayNotificationsRepository {
  /** The processed notification with this id, if any, as a statement for runStatements. */
  findStatement(notifyId: string): Statement<ProcessedNotification | undefined> {
    return {
      sql: `SELECT order_id, pay_order_id, amount, currency, status, changed_order, answer
         FROM t_pay_notification WHERE notify_id = ?`,
      params: [notifyId],
      read: (rows) => {
        const [row] = rows as NotificationRow[];
        if (!row) return undefined;
        return {
          notifyId,
          orderId: String(row.order_id),
          payOrderId: row.pay_order_id,
          amount: Number(row.amount),
          currency: row.currency,
          status: row.status,
          changedOrder: Number(row.changed_order) === 1,
          answer: (typeof row.answer === 'string'
            ? JSON.parse(row.answer)
            : row.answer) as PayCallbackAnswer,
        };
      },
    };
  }

  /**
   * Claims the notification id. Fails with ER_DUP_ENTRY when a concurrent copy claimed it first
   * (InnoDB makes this insert wait for that transaction, so the failure comes after its commit),
   * and then rejects runStatements with it whatever was sent beside it.
   */
  insertStatement(notification: ProcessedNotification): Statement {
    return {
      sql: `INSERT INTO t_pay_notification
         (notify_id, order_id, pay_order_id, amount, currency, status, changed_order, answer,
          created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, UTC_TIMESTAMP(3))`,
      params: [
        notification.notifyId,
        notification.orderId,
        notification.payOrderId,
        notification.amount,
        notification.currency,
        notification.status,
        notification.changedOrder ? 1 : 0,
        JSON.stringify(notification.answer),
      ],
      read: () => undefined,
    };
  }
}
