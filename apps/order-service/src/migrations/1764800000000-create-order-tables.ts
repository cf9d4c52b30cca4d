import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The order-service's own tables:
 * - t_order: the aggregate; `version` is its compare-and-set counter and its event number.
 *   uk_pay_order_id: one payment id belongs to one order.
 * - t_order_idempotency: one row per Idempotency-Key of POST /orders, with the request's hash
 *   and the first response, replayed to retries.
 * - t_pay_notification: one row per processed provider notification (PK notify_id) with the
 *   answer we gave, replayed to repeats.
 */
export class CreateOrderTables1764800000000 implements MigrationInterface {
  name = 'CreateOrderTables1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE t_order (
        id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
        user_id VARCHAR(64) NOT NULL,
        amount BIGINT NOT NULL COMMENT 'minor units',
        currency CHAR(3) NOT NULL,
        status VARCHAR(16) NOT NULL COMMENT 'CREATED / PAYING / PAID / CANCELLED / PAYMENT_FAILED',
        version INT UNSIGNED NOT NULL,
        pay_order_id VARCHAR(64) NULL,
        settled_by_notify_id VARCHAR(64) NULL,
        close_reason VARCHAR(256) NULL,
        created_at DATETIME(3) NOT NULL,
        updated_at DATETIME(3) NOT NULL,
        paid_at DATETIME(3) NULL,
        cancelled_at DATETIME(3) NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uk_pay_order_id (pay_order_id),
        KEY idx_user (user_id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci
    `);
    await queryRunner.query(`
      CREATE TABLE t_order_idempotency (
        idempotency_key VARCHAR(128) NOT NULL,
        request_hash CHAR(64) NOT NULL,
        order_id BIGINT UNSIGNED NOT NULL,
        response_status SMALLINT UNSIGNED NOT NULL,
        response_body LONGTEXT NOT NULL,
        created_at DATETIME(3) NOT NULL,
        PRIMARY KEY (idempotency_key)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
    `);
    await queryRunner.query(`
      CREATE TABLE t_pay_notification (
        notify_id VARCHAR(64) NOT NULL,
        order_id BIGINT UNSIGNED NOT NULL,
        pay_order_id VARCHAR(64) NOT NULL,
        status VARCHAR(8) NOT NULL COMMENT 'SUCCESS / FAILED, as notified',
        changed_order TINYINT(1) NOT NULL COMMENT '1 when this notification moved the order',
        answer LONGTEXT NOT NULL COMMENT 'the JSON body we answered, replayed to repeats',
        created_at DATETIME(3) NOT NULL,
        PRIMARY KEY (notify_id),
        KEY idx_order (order_id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE t_pay_notification');
    await queryRunner.query('DROP TABLE t_order_idempotency');
    await queryRunner.query('DROP TABLE t_order');
  }
}
