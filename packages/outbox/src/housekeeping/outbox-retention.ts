import { Logger, LoggerService } from '@nestjs/common';
import { OutboxOperations } from '../operations/outbox-operations';

/** When SENT rows are deleted. */
export interface OutboxRetentionOptions {
  /** SENT rows older than this are deleted. Default 7 days. */
  sentMaxAgeMs: number;
  /** Time between retention passes. Default 10 minutes. */
  intervalMs: number;
  /** Rows per DELETE. Default 1,000. */
  chunkSize: number;
}

export const DEFAULT_RETENTION: Readonly<OutboxRetentionOptions> = Object.freeze({
  sentMaxAgeMs: 7 * 24 * 3_600_000,
  intervalMs: 10 * 60_000,
  chunkSize: 1_000,
});

/**
 * Runs OutboxOperations.pruneSent on a timer (every process may run it: each DELETE chunk is
 * independent, so concurrent passes only share the work).
 */
export class OutboxRetention {
  private timer?: NodeJS.Timeout;
  private pass?: Promise<void>;

  constructor(
    private readonly operations: OutboxOperations,
    private readonly options: OutboxRetentionOptions = DEFAULT_RETENTION,
    private readonly logger: LoggerService = new Logger(OutboxRetention.name),
  ) {
    for (const [name, value] of Object.entries(options)) {
      if (!Number.isInteger(value) || value < 1) {
        throw new Error(`OutboxRetention: ${name} must be a positive integer, got ${value}`);
      }
    }
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.pass ??= this.runOnce().finally(() => (this.pass = undefined));
    }, this.options.intervalMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.pass;
  }

  /** One pass; errors are logged, the next pass tries again. */
  async runOnce(): Promise<void> {
    try {
      const deleted = await this.operations.pruneSent({
        olderThanMs: this.options.sentMaxAgeMs,
        chunkSize: this.options.chunkSize,
      });
      if (deleted > 0) this.logger.log(`outbox retention deleted ${deleted} SENT rows`);
    } catch (error) {
      this.logger.warn?.(`outbox retention pass failed: ${String(error)}`);
    }
  }
}
