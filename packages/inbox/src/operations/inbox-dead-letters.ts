import { kafkaClient, TopicMessage, readWholeTopic } from '@outbox-inbox/messaging';
import { OperatorActionAudit, recordOperatorAction } from '@outbox-inbox/database';
import { Kafka, Partitioners } from 'kafkajs';
import { DataSource } from 'typeorm';
import { DeadLetterHeader } from '../dead-letter/dead-letter-headers';
import { ResolvedInboxOptions } from '../inbox.options';
import {
  checkReplayRequest,
  deadLetterKey,
  dryRunResult,
  planReplay,
  ReplayPlan,
  ReplayRequest,
  ReplayResult,
  replayMessage,
} from './replay-plan';
import { ReplayRecords } from './replay-records';

/** The dead-letter topic's reads join groups named as before the reader was generic (ACLs). */
const DEAD_LETTER_READ = { groupPrefix: 'inbox-dlq-reader' };

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

/**
 * A consumer's dead letters: listing them, and replaying them. Replay puts the original key,
 * value and headers on this consumer's retry topic, which its group alone reads, so no other
 * consumer of the source topic gets the event again; the inbox absorbs an event that was
 * applied meanwhile. Replays are recorded in t_inbox_dlq_replay so the same message is not
 * replayed twice unless asked.
 */
export class InboxDeadLetters {
  private readonly kafka: Kafka;
  private readonly records: ReplayRecords;

  constructor(
    private readonly options: ResolvedInboxOptions,
    private readonly dataSource: DataSource,
  ) {
    this.kafka = kafkaClient(options.kafka, {}, '-inbox-ops');
    this.records = new ReplayRecords(dataSource, options.consumer, options.deadLetterTopic);
  }

  /** The one topic a replay publishes to: this consumer's retry topic, read by its group alone. */
  get retryTopic(): string {
    return this.options.retryTopic;
  }

  /** Every message of the dead-letter topic, with when it was last replayed. */
  async list(): Promise<DeadLetterMessage[]> {
    const raw = await readWholeTopic(this.kafka, this.options.deadLetterTopic, DEAD_LETTER_READ);
    const replayed = await this.records.times();
    return raw.map((m) => describe(m, replayed.get(deadLetterKey(m)) ?? null));
  }

  /**
   * The dead letters as the topic alone holds them, without the database: `replayedAt` is null
   * (unknown). `/inbox/dead-letters` answers with it while the database is unreachable.
   */
  async listFromTopic(): Promise<DeadLetterMessage[]> {
    const raw = await readWholeTopic(this.kafka, this.options.deadLetterTopic, DEAD_LETTER_READ);
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

  /** Plans the replay (replay-plan.ts), then publishes what the plan selected, unless a dry run. */
  private async republish(request: ReplayRequest): Promise<ReplayResult> {
    const { retryTopic, topics, deadLetterTopic } = this.options;
    checkReplayRequest(request, retryTopic);
    const deadLetters = await readWholeTopic(this.kafka, deadLetterTopic, DEAD_LETTER_READ);
    const plan = planReplay(deadLetters, await this.records.times(), request, {
      retryTopic,
      topics,
    });
    if (request.dryRun) return dryRunResult(plan, retryTopic);
    if (plan.toPublish.length === 0) return plan.result;
    return this.publish(plan);
  }

  /**
   * Publishes the plan's dead letters to the retry topic in order, recording each, and stops at
   * the first that fails. Publish first, then record: a crash between the two replays the
   * message again, which the inbox absorbs.
   */
  private async publish({ toPublish, result }: ReplayPlan): Promise<ReplayResult> {
    const targetTopic = this.options.retryTopic;
    const producer = this.kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      allowAutoTopicCreation: false,
    });
    await producer.connect();
    try {
      for (const m of toPublish) {
        const { partition, offset } = m;
        const failure = await producer
          .send({
            topic: targetTopic,
            acks: -1,
            messages: [replayMessage(m, this.options.deadLetterTopic)],
          })
          .then(
            () => undefined,
            (error: Error) => error,
          );
        if (failure) {
          result.failed = { partition, offset, targetTopic, error: failure.message };
          break;
        }
        await this.records.record(m, targetTopic);
        result.replayed.push({ partition, offset, targetTopic });
      }
    } finally {
      await producer.disconnect();
    }
    return result;
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

function describe(m: TopicMessage, replayedAt: string | null): DeadLetterMessage {
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
