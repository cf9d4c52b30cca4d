import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * t_pay_callback: one row per payment callback whose signature verified and whose order
 * exists, whatever we answered: accepted (it moved the order), duplicate (a repeat, answered
 * as before), late (signed outside the ±300 s window: 401, nothing changed) or refused (404,
 * 409 or 422: nothing changed). An accepted callback's row is written in the transaction of
 * its effect. The order's timeline shows them; t_pay_notification stays the dedup key.
 * Callbacks with a bad signature are tied to no order and only counted (pay_callbacks_total).
 */
export class CreatePayCallbackTable1765400000100 implements MigrationInterface {
  name = 'CreatePayCallbackTable1765400000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE t_pay_callback (
        id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
        order_id BIGINT UNSIGNED NOT NULL,
        notify_id VARCHAR(64) NOT NULL COMMENT 'the provider''s id of the notification',
        pay_order_id VARCHAR(64) NOT NULL,
        amount BIGINT NOT NULL COMMENT 'minor units, as notified',
        currency CHAR(3) NOT NULL COMMENT 'as notified',
        notified_status VARCHAR(8) NOT NULL COMMENT 'SUCCESS / FAILED, as notified',
        verdict VARCHAR(16) NOT NULL COMMENT 'accepted / duplicate / late / refused',
        answer_status SMALLINT UNSIGNED NOT NULL COMMENT 'the HTTP status we answered',
        detail VARCHAR(200) NULL,
        signed_at DATETIME(3) NOT NULL COMMENT 'the X-Pay-Timestamp it was signed with',
        received_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        KEY idx_pay_callback_order (order_id, id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE t_pay_callback');
  }
}
