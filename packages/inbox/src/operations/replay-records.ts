import { DataSource } from 'typeorm';
import { DeadLetterRef, deadLetterKey } from './replay-plan';

/**
 * t_inbox_dlq_replay: which of a consumer's dead letters were replayed, when, and to which
 * topic, so the same message is not replayed twice unless asked.
 */
export class ReplayRecords {
  constructor(
    private readonly dataSource: DataSource,
    private readonly consumer: string,
    private readonly deadLetterTopic: string,
  ) {}

  /** When each dead letter was last replayed (ISO time), by deadLetterKey. */
  async times(): Promise<Map<string, string>> {
    const rows = (await this.dataSource.query(
      `SELECT dlq_partition, dlq_offset, replayed_at FROM t_inbox_dlq_replay
       WHERE consumer = ? AND dlq_topic = ?`,
      [this.consumer, this.deadLetterTopic],
    )) as Array<{ dlq_partition: number; dlq_offset: string | number; replayed_at: Date }>;
    return new Map(
      rows.map((r) => [
        deadLetterKey({ partition: r.dlq_partition, offset: String(r.dlq_offset) }),
        new Date(r.replayed_at).toISOString(),
      ]),
    );
  }

  /** Records that `deadLetter` was replayed to `targetTopic` now. */
  async record(deadLetter: DeadLetterRef, targetTopic: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO t_inbox_dlq_replay (consumer, dlq_topic, dlq_partition, dlq_offset, target_topic, replayed_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON DUPLICATE KEY UPDATE target_topic = VALUES(target_topic), replayed_at = VALUES(replayed_at)`,
      [
        this.consumer,
        this.deadLetterTopic,
        deadLetter.partition,
        deadLetter.offset,
        targetTopic,
        new Date(),
      ],
    );
  }
}
