import { OnModuleInit } from '@nestjs/common';
import { unreadableTables } from '@outbox-inbox/database';
import { kafkaClient, missingTopics } from '@outbox-inbox/messaging';
import { DataSource } from 'typeorm';
import { OutboxError } from '../outbox.errors';
import type { OutboxModuleOptions } from '../outbox.module-definition';

/** The outbox's own tables. */
const OUTBOX_TABLES = ['t_outbox'];

/**
 * The opt-in start-up check (`checkOnStart`): before the relay starts, t_outbox answers a query
 * and the topics of the aggregate types named exist. Anything missing fails the start with one
 * OutboxError naming each thing and what to do, instead of rows that wait or fail later.
 */
export class OutboxStartCheck implements OnModuleInit {
  constructor(
    private readonly options: OutboxModuleOptions,
    private readonly dataSource: DataSource,
  ) {}

  async onModuleInit(): Promise<void> {
    const setting = this.options.checkOnStart;
    if (!setting) return;
    const problems = (await unreadableTables(this.dataSource, OUTBOX_TABLES)).map(
      (t) => `table ${t.table} cannot be read (${t.error}): run OutboxMigrations`,
    );
    const types = setting === true ? [] : (setting.aggregateTypes ?? []);
    if (types.length > 0 && this.options.kafka) {
      const typeOf = new Map(types.map((type) => [this.options.topicFor(type), type]));
      const kafka = kafkaClient(this.options.kafka, {}, '-start-check');
      for (const topic of await missingTopics(kafka, [...typeOf.keys()])) {
        problems.push(
          `topic ${topic} (aggregate type ${typeOf.get(topic)}) does not exist: create it`,
        );
      }
    }
    if (problems.length > 0) {
      throw new OutboxError(
        'OUTBOX_START_CHECK_FAILED',
        `OutboxModule start check failed: ${problems.join('; ')}`,
      );
    }
  }
}
