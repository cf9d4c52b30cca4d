import { DataSource } from 'typeorm';
import { DeadLetterRef, deadLetterKey } from './replay-plan';
import { InboxOperationsSql } from './sql/inbox-operations-sql';
import { inboxOperationsSqlOf } from './sql/inbox-operations-sql-of';

/**
 * t_inbox_dlq_replay: which of a consumer's dead letters were replayed, when, and to which
 * topic, so the same message is not replayed twice unless asked.
 */
export class ReplayRecords {
  private readonly sql: InboxOperationsSql;

  constructor(
    private readonly dataSource: DataSource,
    private readonly consumer: string,
    private readonly deadLetterTopic: string,
  ) {
    this.sql = inboxOperationsSqlOf(dataSource);
  }

  /** When each dead letter was last replayed (ISO time), by deadLetterKey. */
  async times(): Promise<Map<string, string>> {
    const { sql, params } = this.sql.replayTimes(this.consumer, this.deadLetterTopic);
    const rows = (await this.dataSource.query(sql, params)) as Array<{
      dlq_partition: number;
      dlq_offset: string | number;
      replayed_at: Date;
    }>;
    return new Map(
      rows.map((r) => [
        deadLetterKey({ partition: r.dlq_partition, offset: String(r.dlq_offset) }),
        new Date(r.replayed_at).toISOString(),
      ]),
    );
  }

  /** Records that `deadLetter` was replayed to `targetTopic` now. */
  async record(deadLetter: DeadLetterRef, targetTopic: string): Promise<void> {
    const { sql, params } = this.sql.recordReplay(
      this.consumer,
      this.deadLetterTopic,
      deadLetter,
      targetTopic,
    );
    await this.dataSource.query(sql, params);
  }
}
