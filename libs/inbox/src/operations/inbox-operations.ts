import { Inject, Injectable } from '@nestjs/common';
import { Kafka, logLevel } from 'kafkajs';
import { DataSource } from 'typeorm';
import { DeadLetterHeader, withoutInboxHeaders } from '../dead-letter/dead-letter-headers';
import { affectedRows } from '../gate/inbox-store';
import { RawDeadLetter, readWholeTopic } from '../dead-letter/dead-letter-reader';
import { InboxError } from '../inbox.errors';
import { ResolvedInboxOptions } from '../inbox.options';
import { INBOX_OPTIONS } from '../inbox.tokens';
import { InboxMetrics } from '../transport/inbox-metrics';
import { AggregateSelector, findDeliveries, InboxDeliveryRecord } from './inbox-deliveries';
import { InboxStats, OpenGap } from './inbox-stats';
import { DrainParked, skipVersion, SkipVersionRequest, SkipVersionResult } from './skip-version';

/** A dead-lettered message, with why and where it failed. */
export interface DeadLetterMessage {
  partition: number;
  offset: string;
  key: string | null;
  eventType: string | null;
  eventKey: string | null;
  errorCode: string | null;
  error: string | null;
  attempts: number | null;
  sourceTopic: string | null;
  sourcePartition: number | null;
  sourceOffset: string | null;
  failedAt: string | null;
  /** When it was replayed last; null if never. */
  replayedAt: string | null;
}

/** Which dead-letter messages to replay; at least one selector is required. */
export interface ReplayRequest {
  messages?: Array<{ partition: number; offset: string }>;
  eventType?: string;
  errorCode?: string;
  all?: boolean;
  /** Replay messages that were replayed before too. Default false. */
  includeReplayed?: boolean;
  /** Publish here instead of each message's source topic; one of the consumer's topics. */
  targetTopic?: string;
}

/** A dead letter named by its place in the dead-letter topic. */
export interface DeadLetterRef {
  partition: number;
  offset: string;
}

/** What a replay did, message by message; nothing selected is left out of it. */
export interface ReplayResult {
  /** Dead letters the selectors matched. */
  matched: number;
  replayed: Array<DeadLetterRef & { targetTopic: string }>;
  /** Matched, replayed before, and `includeReplayed` not set. */
  skippedAlreadyReplayed: number;
  /** Matched, but naming no source topic of this consumer (and no targetTopic was given). */
  skippedNotOwnTopic: Array<DeadLetterRef & { sourceTopic: string | null }>;
  /** The publish that failed; the replay stopped there (the rest was not tried). */
  failed?: DeadLetterRef & { targetTopic: string; error: string };
}

/**
 * What an operator does with an inbox: stats, the dead letters, replay, pruning. Replay puts
 * the original key, value and headers back on the source topic; the inbox absorbs an event
 * that was applied meanwhile. Replays are recorded in t_inbox_dlq_replay so the same message is
 * not replayed twice unless asked.
 */
@Injectable()
export class InboxOperations {
  private readonly kafka: Kafka;
  private drain?: DrainParked;

  constructor(
    @Inject(INBOX_OPTIONS) private readonly options: ResolvedInboxOptions,
    private readonly dataSource: DataSource,
    private readonly metrics: InboxMetrics,
  ) {
    this.kafka = new Kafka({
      clientId: `${options.kafka.clientId}-inbox-ops`,
      brokers: options.kafka.brokers,
      logLevel: options.kafka.logLevel ?? logLevel.WARN,
      logCreator: options.kafka.logCreator,
    });
  }

  /** The topics this consumer reads: the only ones a replay may publish to. */
  get topics(): readonly string[] {
    return this.options.topics;
  }

  /**
   * Marks the missing version of an aggregate as skipped on purpose (see skip-version.ts):
   * audited, and its parked successors drained in the same transaction.
   */
  skipVersion(request: SkipVersionRequest): Promise<SkipVersionResult> {
    return skipVersion(this.dataSource, this.options.consumer, request, this.drain);
  }

  /** The transport hands in how to drain parked events once it runs (it owns the handlers). */
  attachDrainer(drain: DrainParked): void {
    this.drain = drain;
  }

  async listDeadLetters(): Promise<DeadLetterMessage[]> {
    const raw = await readWholeTopic(this.kafka, this.options.deadLetterTopic);
    const replayed = await this.replayTimes();
    return raw.map((m) => describe(m, replayed.get(`${m.partition}:${m.offset}`) ?? null));
  }

  async replay(request: ReplayRequest): Promise<ReplayResult> {
    const { messages, eventType, errorCode, all } = request;
    if (!all && !messages?.length && !eventType && !errorCode) {
      throw new InboxError('INVALID_OPTIONS', 'replay needs messages, eventType, errorCode or all');
    }
    const ownTopics = new Set(this.topics);
    if (request.targetTopic !== undefined && !ownTopics.has(request.targetTopic)) {
      throw new InboxError(
        'INVALID_OPTIONS',
        `targetTopic must be one of this consumer's topics: ${[...ownTopics].join(', ')}`,
      );
    }
    const wanted = new Set(messages?.map((m) => `${m.partition}:${m.offset}`));
    const raw = await readWholeTopic(this.kafka, this.options.deadLetterTopic);
    const replayedBefore = await this.replayTimes();
    const selected = raw.filter((m) => {
      const h = m.headers;
      if (wanted.size > 0 && !wanted.has(`${m.partition}:${m.offset}`)) return false;
      if (eventType && h['event-type'] !== eventType) return false;
      if (errorCode && h[DeadLetterHeader.errorCode] !== errorCode) return false;
      return true;
    });
    const fresh = selected.filter(
      (m) => request.includeReplayed || !replayedBefore.has(`${m.partition}:${m.offset}`),
    );
    const result: ReplayResult = {
      matched: selected.length,
      replayed: [],
      skippedAlreadyReplayed: selected.length - fresh.length,
      skippedNotOwnTopic: [],
    };
    const targetOf = (m: RawDeadLetter) =>
      request.targetTopic ?? m.headers[DeadLetterHeader.sourceTopic];
    const replayable = fresh.filter((m) => {
      const target = targetOf(m);
      if (target !== undefined && ownTopics.has(target)) return true;
      result.skippedNotOwnTopic.push({
        partition: m.partition,
        offset: m.offset,
        sourceTopic: target ?? null,
      });
      return false;
    });
    if (replayable.length === 0) return result;

    const producer = this.kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    try {
      for (const m of replayable) {
        const targetTopic = targetOf(m) as string;
        // Publish first, then record: a crash between the two replays again, which the inbox absorbs.
        const sent = await producer
          .send({
            topic: targetTopic,
            acks: -1,
            messages: [
              {
                key: m.key,
                value: m.value,
                headers: {
                  ...withoutInboxHeaders(m.headers),
                  [DeadLetterHeader.replayOf]: `${this.options.deadLetterTopic}/${m.partition}@${m.offset}`,
                },
              },
            ],
          })
          .then(
            () => undefined,
            (error: Error) => error,
          );
        if (sent) {
          const { partition, offset } = m;
          result.failed = { partition, offset, targetTopic, error: sent.message };
          break;
        }
        await this.dataSource.query(
          `INSERT INTO t_inbox_dlq_replay (consumer, dlq_topic, dlq_partition, dlq_offset, target_topic, replayed_at)
           VALUES (?, ?, ?, ?, ?, ?)
           ON DUPLICATE KEY UPDATE target_topic = VALUES(target_topic), replayed_at = VALUES(replayed_at)`,
          [
            this.options.consumer,
            this.options.deadLetterTopic,
            m.partition,
            m.offset,
            targetTopic,
            new Date(),
          ],
        );
        result.replayed.push({ partition: m.partition, offset: m.offset, targetTopic });
      }
    } finally {
      await producer.disconnect();
    }
    return result;
  }

  async stats(): Promise<InboxStats> {
    const consumer = this.options.consumer;
    const byOutcome = (await this.dataSource.query(
      `SELECT outcome, COUNT(*) AS n FROM t_inbox WHERE consumer = ? GROUP BY outcome`,
      [consumer],
    )) as Array<{ outcome: string; n: string | number }>;
    const inbox = { applied: 0, ignored: 0, stale: 0, parked: 0 };
    for (const row of byOutcome) {
      if (row.outcome in inbox) inbox[row.outcome as keyof typeof inbox] = Number(row.n);
    }
    const parked = (await this.dataSource.query(
      `SELECT COUNT(*) AS n FROM t_inbox_parked WHERE consumer = ?`,
      [consumer],
    )) as Array<{ n: string | number }>;
    const { outcomes } = this.metrics;
    return {
      consumer,
      inbox,
      parkedNow: Number(parked[0].n),
      openGaps: await this.openGaps(),
      deadLetterTopicMessages: await this.deadLetterCount(),
      blocked: {
        seconds: this.metrics.blocks.blockedSeconds(),
        partitions: this.metrics.blocks.list(),
      },
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
        unknownEventTypes: this.metrics.unknownEventTypes,
        heldNewerSchema: this.metrics.heldNewerSchema,
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
    const rows = (await this.dataSource.query(
      `SELECT p.aggregate_type, p.aggregate_id, v.last_version,
              GROUP_CONCAT(p.aggregate_version ORDER BY p.aggregate_version) AS versions,
              MIN(p.parked_at) AS oldest
       FROM t_inbox_parked p
       LEFT JOIN t_inbox_version v ON v.consumer = p.consumer
         AND v.aggregate_type = p.aggregate_type AND v.aggregate_id = p.aggregate_id
       WHERE p.consumer = ?
       GROUP BY p.aggregate_type, p.aggregate_id, v.last_version
       HAVING MIN(p.parked_at) < ?
       ORDER BY oldest LIMIT 100`,
      [this.options.consumer, new Date(Date.now() - this.options.gapAlertMs)],
    )) as Array<{
      aggregate_type: string;
      aggregate_id: string;
      last_version: number | string | null;
      versions: string;
      oldest: Date;
    }>;
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
    const [{ through }] = (await this.dataSource.query(
      `SELECT MAX(id) AS through FROM t_inbox
       WHERE consumer = ? AND processed_at < ? AND outcome <> 'parked'`,
      [this.options.consumer, cutoff],
    )) as Array<{ through: string | number | null }>;
    if (through === null) return 0;
    await this.dataSource.query(
      `INSERT INTO t_inbox_prune (consumer, pruned_before, pruned_through_id, pruned_at)
       VALUES (?, ?, ?, ?)
       ON DUPLICATE KEY UPDATE pruned_before = GREATEST(pruned_before, VALUES(pruned_before)),
         pruned_through_id = GREATEST(pruned_through_id, VALUES(pruned_through_id)),
         pruned_at = VALUES(pruned_at)`,
      [this.options.consumer, cutoff, String(through), now],
    );
    let deleted = 0;
    for (;;) {
      const result = (await this.dataSource.query(
        `DELETE FROM t_inbox WHERE consumer = ? AND processed_at < ? AND outcome <> 'parked'
         ORDER BY processed_at LIMIT ${this.options.pruneChunkSize}`,
        [this.options.consumer, cutoff],
      )) as { affectedRows?: number } | [unknown, number];
      const affected = affectedRows(result);
      deleted += affected;
      if (affected < this.options.pruneChunkSize) return deleted;
    }
  }

  private async replayTimes(): Promise<Map<string, string>> {
    const rows = (await this.dataSource.query(
      `SELECT dlq_partition, dlq_offset, replayed_at FROM t_inbox_dlq_replay
       WHERE consumer = ? AND dlq_topic = ?`,
      [this.options.consumer, this.options.deadLetterTopic],
    )) as Array<{ dlq_partition: number; dlq_offset: string | number; replayed_at: Date }>;
    return new Map(
      rows.map((r) => [
        `${r.dlq_partition}:${String(r.dlq_offset)}`,
        new Date(r.replayed_at).toISOString(),
      ]),
    );
  }

  private async deadLetterCount(): Promise<number | null> {
    const admin = this.kafka.admin();
    try {
      await admin.connect();
      const offsets = await admin.fetchTopicOffsets(this.options.deadLetterTopic);
      return offsets.reduce((sum, p) => sum + Number(BigInt(p.high) - BigInt(p.low)), 0);
    } catch {
      return null;
    } finally {
      await admin.disconnect();
    }
  }
}

function describe(m: RawDeadLetter, replayedAt: string | null): DeadLetterMessage {
  const h = m.headers;
  const num = (v: string | undefined) => (v === undefined ? null : Number(v));
  return {
    partition: m.partition,
    offset: m.offset,
    key: m.key?.toString() ?? null,
    eventType: h['event-type'] ?? null,
    eventKey: h['event-key'] ?? null,
    errorCode: h[DeadLetterHeader.errorCode] ?? null,
    error: h[DeadLetterHeader.error] ?? null,
    attempts: num(h[DeadLetterHeader.attempts]),
    sourceTopic: h[DeadLetterHeader.sourceTopic] ?? null,
    sourcePartition: num(h[DeadLetterHeader.sourcePartition]),
    sourceOffset: h[DeadLetterHeader.sourceOffset] ?? null,
    failedAt: h[DeadLetterHeader.failedAt] ?? null,
    replayedAt,
  };
}
