import type { ConsumerFault } from '../metrics/consumer-fault';
import { affectedRows, OperatorAuditRecord, readOperatorAudit } from '@outbox-inbox/database';
import { DataSource } from 'typeorm';
import { ResolvedInboxOptions } from '../inbox.options';
import { InboxStatsSource } from '../inbox-stats.port';
import { InboxMetrics } from '../metrics/inbox-metrics';
import { InboxDeadLetters } from './inbox-dead-letters';
import { AggregateSelector, findDeliveries, InboxDeliveryRecord } from './inbox-deliveries';
import { InboxStats, OpenGap } from './inbox-stats';
import { ParkedDrain, skipVersion, SkipVersionRequest, SkipVersionResult } from './skip-version';
import { InboxOperationsSql } from './sql/inbox-operations-sql';
import { inboxOperationsSqlOf } from './sql/inbox-operations-sql-of';

/** What InboxOperations works with; built by createInbox. */
export interface InboxOperationsDeps {
  options: ResolvedInboxOptions;
  dataSource: DataSource;
  metrics: InboxMetrics;
  deadLetters: InboxDeadLetters;
  /** Drains an aggregate's parked events after a gap skip (the InboxProcessor). */
  drain: ParkedDrain;
  /** Whether the handlers are known: until the transport attached them, nothing is drained. */
  handlers: { readonly attached: boolean };
}

/**
 * What an operator reads of an inbox and does to its rows: stats, open gaps, an aggregate's
 * deliveries, skipping a gap on purpose, and pruning. The dead letters are InboxDeadLetters'.
 * Built by createInbox.
 */
export class InboxOperations implements InboxStatsSource {
  private readonly options: ResolvedInboxOptions;
  private readonly dataSource: DataSource;
  private readonly metrics: InboxMetrics;
  private readonly sql: InboxOperationsSql;

  constructor(private readonly deps: InboxOperationsDeps) {
    this.options = deps.options;
    this.dataSource = deps.dataSource;
    this.metrics = deps.metrics;
    this.sql = inboxOperationsSqlOf(deps.dataSource);
  }

  private run<T>({ sql, params }: { sql: string; params: unknown[] }): Promise<T> {
    return this.dataSource.query(sql, params) as Promise<T>;
  }

  /**
   * Marks the missing version of an aggregate as skipped on purpose (see skip-version.ts):
   * audited, and its parked successors drained in the same transaction. Before the transport
   * attached the handlers, draining would take parked events for unhandled ones: then the
   * next gap check drains them instead.
   */
  skipVersion(request: SkipVersionRequest): Promise<SkipVersionResult> {
    const drain = this.deps.handlers.attached ? this.deps.drain : undefined;
    return skipVersion(this.dataSource, this.options.consumer, request, drain);
  }

  /**
   * Whether this process's consumer has joined its group since it started, and its name.
   * Readiness waits for the first join only: later rebalances and broker outages are shared
   * conditions that /health/details reports.
   */
  groupMembership(): { consumer: string; joined: boolean; fault?: ConsumerFault } {
    const { consumerFault: fault } = this.metrics;
    return {
      consumer: this.options.consumer,
      joined: this.metrics.groupJoins > 0,
      ...(fault && { fault }),
    };
  }

  /** The latest operator actions on this inbox (replays, gap skips), newest first. */
  auditLog(limit = 100): Promise<OperatorAuditRecord[]> {
    return readOperatorAudit(this.dataSource, 'inbox', Math.min(Math.max(1, limit), 1_000));
  }

  async stats(): Promise<InboxStats> {
    const consumer = this.options.consumer;
    const byOutcome = await this.run<Array<{ outcome: string; n: string | number }>>(
      this.sql.outcomeCounts(consumer),
    );
    const inbox = { applied: 0, ignored: 0, stale: 0, parked: 0 };
    for (const row of byOutcome) {
      if (row.outcome in inbox) inbox[row.outcome as keyof typeof inbox] = Number(row.n);
    }
    const parked = await this.run<Array<{ n: string | number }>>(this.sql.parkedCount(consumer));
    const openGaps = await this.openGaps();
    return { ...(await this.knownStats()), inbox, parkedNow: Number(parked[0].n), openGaps };
  }

  /**
   * What this process knows of its inbox without the database: its counters since start, the
   * partitions it holds paused (a blocked consumer) and the dead-letter topic's size (null when
   * the broker cannot be asked either). `/inbox/stats` answers with it during an outage.
   */
  async knownStats(): Promise<Omit<InboxStats, 'inbox' | 'parkedNow' | 'openGaps'>> {
    const { outcomes } = this.metrics;
    return {
      consumer: this.options.consumer,
      deadLetterTopicMessages: await this.deps.deadLetters.count(),
      blocked: {
        seconds: this.metrics.blocks.blockedSeconds(),
        partitions: this.metrics.blocks.list(),
      },
      group: {
        joined: this.metrics.groupJoins > 0,
        rejoiningSeconds:
          this.metrics.rejoiningSince === undefined
            ? 0
            : (Date.now() - this.metrics.rejoiningSince) / 1000,
      },
      consumerFault: this.metrics.consumerFault ?? null,
      sinceStart: {
        applied: outcomes.applied,
        ignored: outcomes.ignored,
        stale: outcomes.stale,
        parked: outcomes.parked,
        duplicates: outcomes.duplicate,
        drained: this.metrics.drained,
        retries: this.metrics.retries,
        deadLettered: this.metrics.deadLettered,
        pauses: this.metrics.pauses,
        deploymentFaults: this.metrics.deploymentFaults,
        unknownEventTypes: this.metrics.unknownEventTypes,
        heldNewerSchema: this.metrics.heldNewerSchema,
        groupJoins: this.metrics.groupJoins,
        consumerCrashes: this.metrics.consumerCrashes,
      },
    };
  }

  /** This consumer's inbox rows of the events of `aggregates`, oldest first. */
  deliveriesOf(aggregates: AggregateSelector[]): Promise<InboxDeliveryRecord[]> {
    return findDeliveries(
      this.dataSource,
      this.options.registry,
      this.options.consumer,
      aggregates,
    );
  }

  /** Aggregates with an event parked for longer than `gapAlertMs`. */
  async openGaps(): Promise<OpenGap[]> {
    const rows = await this.run<
      Array<{
        aggregate_type: string;
        aggregate_id: string;
        last_version: number | string | null;
        versions: string;
        oldest: Date;
      }>
    >(
      this.sql.openGaps(this.options.consumer, new Date(Date.now() - this.options.gapAlertMs), 100),
    );
    return rows.map((r) => ({
      aggregateType: r.aggregate_type,
      aggregateId: r.aggregate_id,
      lastAppliedVersion: r.last_version === null ? null : Number(r.last_version),
      parkedVersions: String(r.versions).split(',').map(Number),
      oldestParkedAt: new Date(r.oldest).toISOString(),
    }));
  }

  /**
   * Deletes inbox rows older than the dedup window, `pruneChunkSize` rows per statement so no
   * statement holds many locks. Parked rows stay: their inbox row is their only duplicate guard.
   * Before deleting, it records the watermark (t_inbox_prune: the cutoff and the highest id it
   * may delete), so that an auditor can tell a pruned row from a lost one; a crash between the
   * two leaves the watermark ahead of the deletes, never behind.
   */
  async prune(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.options.dedupWindowMs);
    const { consumer, pruneChunkSize } = this.options;
    const [{ through }] = await this.run<Array<{ through: string | number | null }>>(
      this.sql.pruneThrough(consumer, cutoff),
    );
    if (through === null) return 0;
    await this.run(this.sql.recordPruneWatermark(consumer, cutoff, String(through), now));
    let deleted = 0;
    for (;;) {
      const affected = affectedRows(
        await this.run(this.sql.deletePruneChunk(consumer, cutoff, pruneChunkSize)),
      );
      deleted += affected;
      if (affected < pruneChunkSize) return deleted;
    }
  }
}
