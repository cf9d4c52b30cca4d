import { InboxOutcome } from '../gate/inbox-processor';

/** Counters since this process started; the durable counts come from the tables. */
export class InboxMetrics {
  readonly outcomes: Record<InboxOutcome, number> = {
    applied: 0,
    ignored: 0,
    stale: 0,
    parked: 0,
    duplicate: 0,
  };
  drained = 0;
  retries = 0;
  deadLettered = 0;
  /** Batches that failed and were settled message by message. */
  batchFallbacks = 0;

  count(outcome: InboxOutcome, drained: number): void {
    this.outcomes[outcome] += 1;
    this.drained += drained;
  }
}
