import { InboxMigrations } from '@outbox-inbox/inbox';
import { OutboxMigrations } from '@outbox-inbox/outbox';
import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateTickets1766000000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      'CREATE TABLE ticket (id VARCHAR(36) PRIMARY KEY, title VARCHAR(200) NOT NULL)',
    );
    await runner.query(
      'CREATE TABLE ticket_stats (id INT PRIMARY KEY, opened INT NOT NULL, last_ticket VARCHAR(36))',
    );
    await runner.query('INSERT INTO ticket_stats VALUES (1, 0, NULL)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE ticket_stats, ticket');
  }
}

export const migrations = [...OutboxMigrations, ...InboxMigrations, CreateTickets1766000000000];
