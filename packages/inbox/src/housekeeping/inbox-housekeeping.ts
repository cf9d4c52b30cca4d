import { deploymentFaultOf, runTransaction } from '@outbox-inbox/database';
import { LoggerService } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InboxProcessor } from '../apply/inbox-processor';
import { describeFault, inboxRemedy } from '../deployment-remedy';
import { InboxStore } from '../apply/inbox-store.port';
import { ResolvedInboxOptions } from '../inbox.options';
import { InboxMetrics } from '../metrics/inbox-metrics';
import { InboxOperations } from '../operations/inbox-operations';

/** What InboxHousekeeping works with; built by createInbox. */
export interface InboxHousekeepingDeps {
  options: ResolvedInboxOptions;
  dataSource: DataSource;
  /** Finds the aggregates whose parked events may be drained. */
  store: InboxStore;
  /** Drains them, applying the events. */
  processor: InboxProcessor;
  /** Open gaps and pruning. */
  operations: InboxOperations;
  metrics: InboxMetrics;
  log: LoggerService;
}

/**
 * The inbox's timers, the twin of the outbox's retention: open gaps logged, old inbox rows
 * pruned, and parked events whose turn has come drained (held for a newer schema until this
 * consumer knew it, or behind a gap skipped on purpose): at start and with every gap check.
 */
export class InboxHousekeeping {
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly log: LoggerService;
  /** The missing table, column or grant last warned about: said once, not every round. */
  private warnedMissing?: string;

  constructor(private readonly deps: InboxHousekeepingDeps) {
    this.log = deps.log;
  }

  start(): void {
    const { gapCheckIntervalMs, pruneIntervalMs } = this.deps.options;
    void this.drainReady();
    if (gapCheckIntervalMs > 0) {
      const check = async () => {
        await this.drainReady();
        await this.reportGaps();
      };
      this.timers.push(setInterval(() => void check(), gapCheckIntervalMs).unref());
    }
    if (pruneIntervalMs > 0) {
      this.timers.push(setInterval(() => void this.prune(), pruneIntervalMs).unref());
    }
  }

  stop(): void {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
  }

  /** Drains every aggregate whose next version is parked; answers how many events it applied. */
  async drainReady(): Promise<number> {
    let applied = 0;
    try {
      const { dataSource, processor } = this.deps;
      const ready = await this.deps.store.readyAggregates(dataSource.manager, 500);
      for (const { aggregateType, aggregateId } of ready) {
        const drained = await runTransaction(dataSource, (manager) =>
          processor.drainReady(manager, aggregateType, aggregateId),
        );
        if (drained > 0) {
          this.deps.metrics.drained += drained;
          this.log.log(`drained ${drained} parked event(s) of ${aggregateType} ${aggregateId}`);
        }
        applied += drained;
      }
    } catch (error) {
      this.failed('draining parked events', error);
    }
    return applied;
  }

  private async reportGaps(): Promise<void> {
    try {
      for (const gap of await this.deps.operations.openGaps()) {
        this.log.warn(
          `open gap: ${gap.aggregateType} ${gap.aggregateId} applied up to ${gap.lastAppliedVersion ?? 'none'}, waiting with ${gap.parkedVersions.join(',')} since ${gap.oldestParkedAt}`,
        );
      }
    } catch (error) {
      this.failed('gap check', error);
    }
  }

  private async prune(): Promise<void> {
    try {
      const deleted = await this.deps.operations.prune();
      if (deleted > 0) this.log.log(`pruned ${deleted} inbox rows`);
    } catch (error) {
      this.failed('prune', error);
    }
  }

  /** Logs a failed round: an error, or one warning per missing table, column or grant. */
  private failed(what: string, error: unknown): void {
    const fault = deploymentFaultOf(error);
    if (!fault) {
      this.log.error(`${what} failed: ${(error as Error).message}`);
      return;
    }
    if (this.warnedMissing === fault.subject) return;
    this.warnedMissing = fault.subject;
    this.log.warn(
      `${what} waits for the deployment: ${describeFault(fault)} (${fault.code}); ${inboxRemedy(fault)}`,
    );
  }
}
