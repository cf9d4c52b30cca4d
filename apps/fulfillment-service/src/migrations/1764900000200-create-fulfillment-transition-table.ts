import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * t_fulfillment_transition: every state a fulfillment was written in (creation, each attempt,
 * DONE, CANCELLED, REVERTED), in the transaction of the write, for the order timeline.
 */
export class CreateFulfillmentTransitionTable1764900000200 implements MigrationInterface {
  name = 'CreateFulfillmentTransitionTable1764900000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE t_fulfillment_transition (
        id BIGINT NOT NULL AUTO_INCREMENT,
        fulfillment_id BIGINT NOT NULL,
        version INT NOT NULL,
        status VARCHAR(16) NOT NULL,
        attempts INT NOT NULL,
        last_error VARCHAR(500) NULL,
        occurred_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        KEY idx_fulfillment_transition (fulfillment_id, id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE t_fulfillment_transition');
  }
}
