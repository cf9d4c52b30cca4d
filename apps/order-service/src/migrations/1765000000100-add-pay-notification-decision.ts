import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * t_pay_notification keeps the amount and currency of the notification it processed, so that a
 * repeat of the notifyId can be compared with it in every field the decision used (order,
 * payment, amount, currency, status). Rows processed before this migration were accepted only
 * when amount and currency equalled the order's, so the order's values are theirs.
 */
export class AddPayNotificationDecision1765000000100 implements MigrationInterface {
  name = 'AddPayNotificationDecision1765000000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE t_pay_notification
        ADD COLUMN amount BIGINT NULL COMMENT 'minor units, as notified' AFTER pay_order_id,
        ADD COLUMN currency CHAR(3) NULL COMMENT 'as notified' AFTER amount
    `);
    await queryRunner.query(`
      UPDATE t_pay_notification n JOIN t_order o ON o.id = n.order_id
         SET n.amount = o.amount, n.currency = o.currency
    `);
    await queryRunner.query(`
      ALTER TABLE t_pay_notification
        MODIFY amount BIGINT NOT NULL COMMENT 'minor units, as notified',
        MODIFY currency CHAR(3) NOT NULL COMMENT 'as notified'
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE t_pay_notification DROP COLUMN currency, DROP COLUMN amount',
    );
  }
}
