import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { delay, runTransaction } from '@outbox-inbox/database';
import { DataSource } from 'typeorm';
import { FULFILLMENT_OPTIONS, FulfillmentOptions } from './fulfillment.options';
import { FulfillmentService } from './fulfillment.service';

/**
 * Retries FAILED grants whose next attempt is due, one row per transaction, with
 * `FOR UPDATE SKIP LOCKED` so that several instances share the work without waiting.
 */
@Injectable()
export class FulfillmentRetrier implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(FulfillmentRetrier.name);
  private running = false;
  private loop?: Promise<void>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly fulfillments: FulfillmentService,
    @Inject(FULFILLMENT_OPTIONS) private readonly options: FulfillmentOptions,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  /** Retries every fulfillment that is due now; returns how many were attempted. */
  async retryDue(limit = 100): Promise<number> {
    let attempted = 0;
    while (this.running && attempted < limit) {
      const retried = await runTransaction(this.dataSource, (m) =>
        this.fulfillments.retryNextDue(m),
      );
      if (!retried) break;
      attempted++;
    }
    return attempted;
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.retryDue();
      } catch (error) {
        this.logger.error(`retry pass failed: ${(error as Error).message}`);
      }
      await delay(this.options.retryPollMs);
    }
  }
}
