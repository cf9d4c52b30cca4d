import { DEFAULT_RELAY_OPTIONS, KafkaOutboxPublisher } from '@outbox-inbox/outbox';
import { logLevel } from 'kafkajs';
import { Pool, PoolConnection } from 'mysql2/promise';
import { mysqlRelayBenchSql } from '../../relay/relay-bench-sql';

/** Rows claimed per transaction, as the relay's batch. */
const BATCH = DEFAULT_RELAY_OPTIONS.batchSize;

/**
 * The minimal chain's relay for one service database: bench/relay's minimal SKIP LOCKED relay
 * (the same claim and outcome statements, the same KafkaOutboxPublisher with the relay's
 * settings) as a loop. In one transaction it claims the due NEW rows with
 * `FOR UPDATE SKIP LOCKED`, sends them, marks them SENT and commits; when none are due it waits
 * for a commit in this process (`wake()`, as the relay's in-process commit notifier) or the
 * relay's poll interval. No lease, no fencing, no hold-back, no claims ahead: one topic, one
 * connection.
 */
export class MinimalRelay {
  private readonly publisher: KafkaOutboxPublisher;
  private running = false;
  private woken = false;
  private wakeUp?: () => void;
  private loop?: Promise<void>;
  /** The first error of the loop (it stops on it); `stop()` rethrows it. */
  private failure?: unknown;

  constructor(
    private readonly pool: Pool,
    private readonly topic: string,
    brokers: string[],
  ) {
    this.publisher = new KafkaOutboxPublisher(
      { brokers, clientId: `bench-minimal-relay-${topic}`, logLevel: logLevel.NOTHING },
      DEFAULT_RELAY_OPTIONS,
    );
  }

  start(): void {
    this.running = true;
    this.loop = this.pool.getConnection().then(async (connection) => {
      try {
        await this.run(connection);
      } catch (error) {
        this.failure = error;
      } finally {
        connection.release();
      }
    });
  }

  /** A commit in this process may have left a row to send: claim now. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
    await this.publisher.disconnect();
    if (this.failure) throw this.failure;
  }

  private async run(connection: PoolConnection): Promise<void> {
    while (this.running) {
      this.woken = false;
      if ((await this.relayOnce(connection)) === 0) await this.idle();
    }
  }

  /** One transaction: claim, send, mark SENT, commit. Returns the rows sent. */
  private async relayOnce(connection: PoolConnection): Promise<number> {
    const claim = mysqlRelayBenchSql.claimDue(BATCH);
    await connection.query('START TRANSACTION');
    try {
      const [rows] = (await connection.query(claim.sql, claim.params)) as unknown as [
        Array<{ id: string; aggregate_id: string; payload: string; headers: string }>,
      ];
      if (rows.length > 0) {
        await this.publisher.publish([
          {
            topic: this.topic,
            messages: rows.map((r) => ({
              key: r.aggregate_id,
              value: r.payload,
              headers: JSON.parse(r.headers) as Record<string, string>,
            })),
          },
        ]);
        const mark = mysqlRelayBenchSql.markSent(rows.map((r) => r.id));
        await connection.query(mark.sql, mark.params);
      }
      await connection.query('COMMIT');
      return rows.length;
    } catch (error) {
      await connection.query('ROLLBACK');
      throw error;
    }
  }

  /** Waits for a wake-up or the relay's poll interval, unless one came during the last round. */
  private async idle(): Promise<void> {
    if (this.woken || !this.running) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, DEFAULT_RELAY_OPTIONS.pollIntervalMs);
      this.wakeUp = done;
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
    this.wakeUp = undefined;
  }
}
