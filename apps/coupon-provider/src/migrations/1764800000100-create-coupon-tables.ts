import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * - t_coupon_idempotency: one row per Idempotency-Key with the hash of the parameters it was
 *   first used with, the coupon it produced and how many requests carried it.
 * - t_coupon: the coupons. Its idempotency_key index is deliberately not unique, so that
 *   /coupons/grants/stats counts grants per key from the coupons themselves: a bug that granted
 *   twice for one key would show there instead of failing an insert.
 */
export class CreateCouponTables1764800000100 implements MigrationInterface {
  name = 'CreateCouponTables1764800000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE t_coupon_idempotency (
        idempotency_key VARCHAR(190) NOT NULL,
        params_hash CHAR(64) NOT NULL,
        coupon_code VARCHAR(32) NOT NULL,
        requests INT UNSIGNED NOT NULL DEFAULT 1,
        first_request_at DATETIME(3) NOT NULL,
        last_request_at DATETIME(3) NOT NULL,
        PRIMARY KEY (idempotency_key)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
    `);
    await queryRunner.query(`
      CREATE TABLE t_coupon (
        coupon_code VARCHAR(32) NOT NULL,
        idempotency_key VARCHAR(190) NOT NULL,
        user_id VARCHAR(64) NOT NULL,
        order_id VARCHAR(64) NOT NULL,
        value BIGINT NOT NULL COMMENT 'minor units',
        currency CHAR(3) NOT NULL,
        status VARCHAR(8) NOT NULL COMMENT 'GRANTED / REVOKED',
        granted_at DATETIME(3) NOT NULL,
        revoked_at DATETIME(3) NULL,
        PRIMARY KEY (coupon_code),
        KEY idx_idempotency_key (idempotency_key)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE t_coupon');
    await queryRunner.query('DROP TABLE t_coupon_idempotency');
  }
}
