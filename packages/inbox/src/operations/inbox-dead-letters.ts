import { kafkaClient } from '@outbox-inbox/messaging';
import { recordOperatorAction } from '@outbox-inbox/database';
import { Kafka } from 'kafkajs';
import { DataSource } from 'typeorm';
import { DeadLetterHeader, withoutInboxHeaders } from '../dead-letter/dead-letter-headers';
import { RawDeadLetter, readWholeTopic } from '../dead-letter/dead-letter-reader';
import { InboxError } from '../inbox.errors';
import { ResolvedInboxOptions } from '../inbox.options';

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
  /** The first 300 characters of the message's value. */
  valuePreview: string | null;
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
  /**
   * Replay every selected message, whatever topic it came from; it can only be this consumer's
   * retry topic, the one topic a replay writes to (no other group reads it).
   */
  targetTopic?: string;
  /** List what would be replayed, and publish and record nothing. Default false. */
  dryRun?: boolean;
}

/** Who asked for an operator action, and why: what the audit log records beside it. */
export interface OperatorActionAudit {
  who: string;
  reason?: string | null;
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
  /** Published to the consumer's retry topic (`targetTopic`), and recorded. */
  replayed: Array<DeadLetterRef & { targetTopic: string }>;
  /** Matched, replayed before, and `includeReplayed` not set. */
  skippedAlreadyReplayed: number;
  /** Matched, but naming no source topic of this consumer (and no targetTopic was given). */
  skippedNotOwnTopic: Array<DeadLetterRef & { sourceTopic: string | null }>;
  /** The publish that failed; the replay stopped there (the rest was not tried). */
  failed?: DeadLetterRef & { targetTopic: string; error: string };
  /** Present on a dry run: nothing was published or recorded (`replayed` is empty). */
  dryRun?: true;
  /** On a dry run: what a replay with the same request would publish, and where. */
  wouldReplay?: Array<DeadLetterRef & { targetTopic: string }>;
}

/**
 * A consumer's dead letters: listing them, and replaying them. Replay puts the original key,
 * value and headers on this consumer's retry topic, which its group alone reads, so no other
 * consumer of the source topic gets the event again; the inbox absorbs an event that was
 * applied meanwhile. Replays are recorded in t_inbox_dlq_replay so the same message is not
 * replayed twice unless asked.
 */
export class InboxDeadLetters {
  private readonly kafka: Kafka;

  constructor(
    private readonly options: ResolvedInboxOptions,
    private readonly dataSource: DataSource,
  ) {
    this.kafka = kafkaClient(options.kafka, {}, '-inbox-ops');
  }

  /** The one topic a replay publishes to: this consumer's retry topic, read by its group alone. */
  get retryTopic(): string {
    return this.options.retryTopic;
  }

  /** Every message of the dead-letter topic, with when it was last replayed. */
  async list(): Promise<DeadLetterMessage[]> {
    const raw = await readWholeTopic(this.kafka, this.options.deadLetterTopic);
    const replayed = await this.replayTimes();
    return raw.map((m) => describe(m, replayed.get(`${m.partition}:${m.offset}`) ?? null));
  }

  /**
   * The dead letters as the topic alone holds them, without the database: `replayedAt` is null
   * (unknown). `/inbox/dead-letters` answers with it while the database is unreachable.
   */
  async listFromTopic(): Promise<DeadLetterMessage[]> {
    const raw = await readWholeTopic(this.kafka, this.options.deadLetterTopic);
    return raw.map((m) => describe(m, null));
  }

  /**
   * Republishes the selected dead letters (see the class); with `audit`, a replay that was not
   * a dry run is recorded in the operator audit log, with how many it published.
   */
  async replay(request: ReplayRequest, audit?: OperatorActionAudit): Promise<ReplayResult> {
    const result = await this.republish(request);
    if (audit && !request.dryRun && (result.matched > 0 || result.failed)) {
      const { dryRun: _dryRun, ...selector } = request;
      await recordOperatorAction(this.dataSource, {
        area: 'inbox',
        action: 'inbox.replay',
        target: { consumer: this.options.consumer, ...selector },
        count: result.replayed.length,
        reason: audit.reason ?? null,
        who: audit.who,
      });
    }
    return result;
  }

  private async republish(request: ReplayRequest): Promise<ReplayResult> {
    const { messages, eventType, errorCode, all } = request;
    if (!all && !messages?.length && !eventType && !errorCode) {
      throw new InboxError('INVALID_OPTIONS', 'replay needs messages, eventType, errorCode or all');
    }
    const { retryTopic } = this.options;
    if (request.targetTopic !== undefined && request.targetTopic !== retryTopic) {
      throw new InboxError('INVALID_OPTIONS', targetTopicRule(retryTopic));
    }
    // Dead letters of messages this consumer read: from its topics, or replays that failed again.
    const ownTopics = new Set([...this.options.topics, retryTopic]);
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
    const replayable = fresh.filter((m) => {
      const source = m.headers[DeadLetterHeader.sourceTopic];
      if (request.targetTopic !== undefined || (source !== undefined && ownTopics.has(source)))
        return true;
      result.skippedNotOwnTopic.push({
        partition: m.partition,
        offset: m.offset,
        sourceTopic: source ?? null,
      });
      return false;
    });
    if (request.dryRun) {
      const wouldReplay = replayable.map(({ partition, offset }) => ({
        partition,
        offset,
        targetTopic: retryTopic,
      }));
      return { ...result, dryRun: true, wouldReplay };
    }
    if (replayable.length === 0) return result;

    const producer = this.kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    try {
      for (const m of replayable) {
        const targetTopic = retryTopic;
        // Keyed as the original, so the aggregate's replays stay in one partition, in order.
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

  /** Messages in the dead-letter topic; null when the broker cannot say. */
  async count(): Promise<number | null> {
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

/** Why a targetTopic is refused: a replay writes to the consumer's retry topic only. */
export function targetTopicRule(retryTopic: string): string {
  return `targetTopic can only be this consumer's retry topic ${retryTopic}: a replay reaches no other consumer group`;
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
    valuePreview: m.value === null ? null : m.value.toString('utf8', 0, 1200).slice(0, 300),
    replayedAt,
  };
}
