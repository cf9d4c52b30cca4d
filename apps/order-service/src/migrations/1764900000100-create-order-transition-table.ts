import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * t_order_transition: one row per order state change (version 1 is the creation), written in
 * the transaction of the change. The outbox holds the same events only until retention
 * prunes them; this is the order's durable history, read by GET /orders/:id/timeline.
 */
export class CreateOrderTransitionTable1764900000100 implements MigrationInterface {
  name = 'CreateOrderTransitionTable1764900000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE t_order_transition (
        order_id BIGINT UNSIGNED NOT NULL,
        version INT UNSIGNED NOT NULL,
        status VARCHAR(16) NOT NULL COMMENT 'the status the order moved to',
        event_type VARCHAR(64) NOT NULL,
        cause VARCHAR(190) NULL COMMENT 'notifyId, Idempotency-Key… when known',
        occurred_at DATETIME(3) NOT NULL,
        PRIMARY KEY (order_id, version)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE t_order_transition');
  }
}
