import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateFulfillmentTable1764700000100 implements MigrationInterface {
  name = 'CreateFulfillmentTable1764700000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE t_fulfillment (
        id BIGINT NOT NULL AUTO_INCREMENT,
        order_id VARCHAR(32) NOT NULL,
        type VARCHAR(16) NOT NULL,
        user_id VARCHAR(64) NOT NULL,
        status VARCHAR(16) NOT NULL,
        version INT NOT NULL,
        event_version INT NOT NULL DEFAULT 0,
        grant_key VARCHAR(190) NOT NULL,
        coupon_value BIGINT NOT NULL,
        currency CHAR(3) NOT NULL,
        coupon_code VARCHAR(64) NULL,
        attempts INT NOT NULL DEFAULT 0,
        next_attempt_at DATETIME(3) NULL,
        last_error VARCHAR(500) NULL,
        created_at DATETIME(3) NOT NULL,
        updated_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uk_fulfillment_order_type (order_id, type),
        KEY idx_fulfillment_retry (status, next_attempt_at)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE t_fulfillment');
  }
}
