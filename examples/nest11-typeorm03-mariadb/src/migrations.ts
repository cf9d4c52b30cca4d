import { InboxMigrations } from '@outbox-inbox/inbox';
import { OutboxMigrations } from '@outbox-inbox/outbox';
import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateTicket1766000000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    // TypeORM makes a uuid key itself on MySQL, and leaves it to the column's default on PostgreSQL.
    const id =
      runner.connection.options.type === 'postgres'
        ? 'UUID PRIMARY KEY DEFAULT gen_random_uuid()'
        : 'CHAR(36) PRIMARY KEY';
    await runner.query(
      `CREATE TABLE ticket (id ${id}, title VARCHAR(200) NOT NULL, notified INT NOT NULL DEFAULT 0)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE ticket');
  }
}

export const migrations = [...OutboxMigrations, ...InboxMigrations, CreateTicket1766000000000];
