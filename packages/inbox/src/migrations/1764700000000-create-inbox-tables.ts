import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The inbox (one row per event a consumer took in), the version gate (last applied version
 * per consumer and aggregate), events parked until their gap fills, and the dead-letter
 * messages already replayed.
 */
export class CreateInboxTables1764700000000 implements MigrationInterface {
  name = 'CreateInboxTables1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE t_inbox (
        id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
        consumer VARCHAR(64) NOT NULL,
        event_key VARCHAR(190) NOT NULL,
        event_type VARCHAR(64) NOT NULL,
        event_id CHAR(36) NOT NULL,
        outcome VARCHAR(16) NOT NULL,
        processed_at DATETIME(3) NOT NULL,
        UNIQUE KEY uk_inbox_consumer_event (consumer, event_key),
        KEY ix_inbox_consumer_processed (consumer, processed_at)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await queryRunner.query(`
      CREATE TABLE t_inbox_version (
        consumer VARCHAR(64) NOT NULL,
        aggregate_type VARCHAR(32) NOT NULL,
        aggregate_id VARCHAR(64) NOT NULL,
        last_version INT UNSIGNED NOT NULL,
        parked_count INT UNSIGNED NOT NULL,
        updated_at DATETIME(3) NOT NULL,
        PRIMARY KEY (consumer, aggregate_type, aggregate_id)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await queryRunner.query(`
      CREATE TABLE t_inbox_parked (
        id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
        consumer VARCHAR(64) NOT NULL,
        aggregate_type VARCHAR(32) NOT NULL,
        aggregate_id VARCHAR(64) NOT NULL,
        aggregate_version INT UNSIGNED NOT NULL,
        event_key VARCHAR(190) NOT NULL,
        event_type VARCHAR(64) NOT NULL,
        envelope LONGTEXT NOT NULL,
        already_handled TINYINT(1) NOT NULL,
        source_topic VARCHAR(249) NOT NULL,
        source_partition INT NOT NULL,
        source_offset BIGINT NOT NULL,
        parked_at DATETIME(3) NOT NULL,
        UNIQUE KEY uk_parked_aggregate_version (consumer, aggregate_type, aggregate_id, aggregate_version),
        KEY ix_parked_consumer_parked (consumer, parked_at)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await queryRunner.query(`
      CREATE TABLE t_inbox_dlq_replay (
        consumer VARCHAR(64) NOT NULL,
        dlq_topic VARCHAR(249) NOT NULL,
        dlq_partition INT NOT NULL,
        dlq_offset BIGINT NOT NULL,
        target_topic VARCHAR(249) NOT NULL,
        replayed_at DATETIME(3) NOT NULL,
        PRIMARY KEY (consumer, dlq_topic, dlq_partition, dlq_offset)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE t_inbox_dlq_replay');
    await queryRunner.query('DROP TABLE t_inbox_parked');
    await queryRunner.query('DROP TABLE t_inbox_version');
    await queryRunner.query('DROP TABLE t_inbox');
  }
}
