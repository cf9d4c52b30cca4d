import { InboxMigrations } from '@outbox-inbox/inbox';
import { OutboxMigrations } from '@outbox-inbox/outbox';
import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateTicket1766000000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      'CREATE TABLE ticket (id UUID PRIMARY KEY DEFAULT gen_random_uuid(), title VARCHAR(200) NOT NULL, notified INT NOT NULL DEFAULT 0)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE ticket');
  }
}

/** The packages' tables, then the app's own. */
export const migrations = [...OutboxMigrations, ...InboxMigrations, CreateTicket1766000000000];
