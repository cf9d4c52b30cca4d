import { LoggerService } from '@nestjs/common';
import { MessageTracing } from '@outbox-inbox/messaging';
import { LeaseKeeper } from './lease-keeper';
import { OutboxPublisher } from '../publisher/outbox-publisher';
import { OutboxRelayOptions, worstSendTimeMs } from './outbox-relay.options';
import { Claim, OutboxOutcomes } from '../store/outbox-store.port';
import { planPublish, PublishPlan, toTopicBatches } from './publish-plan';
import { RelayFaults } from './relay-faults';
import { TopicHold, TopicHolds } from './topic-holds';
import { TopicUnavailableError } from '../publisher/topic-unavailable';
import { BrokerAccessHold } from './broker-access-hold';

/** Counters of what the sender did with the rows it was given, since it was built. */
export interface BatchSenderCounters {
  published: number;
  /** Failed publish attempts (rows), each retried later or made DEAD. */
  publishFailures: number;
  dead: number;
  /** Rows whose outcome this relay could not record because another relay took the lease. */
  leaseLost: number;
  /**
   * Rows handed back unsent because their topic is missing or denied (each time): they keep
   * their attempts and wait for the topic (OutboxRelayStats.faults names it).
   */
  topicHeld: number;
}

/** Records a sent batch's outcome; the relay loop runs it while the next batch is on the wire. */
export type RecordOutcome = () => Promise<void>;

/** What a BatchSender works with: it builds none of it. */
export interface BatchSenderParts {
  publisher: OutboxPublisher;
  outcomes: OutboxOutcomes;
  topicFor: (aggregateType: string) => string;
  options: OutboxRelayOptions;
  logger: LoggerService;
  /** The PRODUCER span of each message sent. */
  tracing: MessageTracing;
  /** Where a missing or denied topic is recorded, and cleared once it takes messages. */
  faults: RelayFaults;
}

/**
 * Sends one claimed batch: records its poison rows (DEAD) and the rows held behind a DEAD one,
 * hands back the rows whose topic is missing or denied (TopicHolds: they wait, keeping their
 * attempts), keeps the lease alive while the rest is on the wire in one awaited request, and returns how
 * to record the outcome (SENT, or a failed attempt) under the claim's lease token.
 */
export class BatchSender {
  private readonly counters: BatchSenderCounters = {
    published: 0,
    publishFailures: 0,
    dead: 0,
    leaseLost: 0,
    topicHeld: 0,
  };
  private readonly topicHolds: TopicHolds;
  private readonly accessHold: BrokerAccessHold;

  constructor(private readonly parts: BatchSenderParts) {
    this.topicHolds = new TopicHolds(parts.faults, parts.logger, parts.options.backoff);
    this.accessHold = new BrokerAccessHold(parts.faults, parts.logger, parts.options.backoff);
  }

  counts(): Readonly<BatchSenderCounters> {
    return { ...this.counters };
  }

  /**
   * Sends a claim's publishable rows (recording poison and blocked rows first) and returns the
   * function that records the send's outcome. Undefined when nothing was sent.
   */
  async send(claim: Claim): Promise<RecordOutcome | undefined> {
    const { outcomes, options, logger } = this.parts;
    const plan = planPublish(
      claim.rows,
      (row) => this.parts.topicFor(row.aggregateType),
      new Set(await this.missingTopics(claim)),
      options,
    );
    for (const { row, reason } of plan.poison) {
      this.countLease(1, await outcomes.markDead([row.id], claim.token, reason));
      this.counters.dead += 1;
      logger.error(`outbox row ${row.id} (${row.eventKey}) is DEAD: ${reason}`);
    }
    const blockedIds = plan.blocked.map((r) => r.id);
    if (blockedIds.length > 0) {
      const released = await outcomes.release(
        blockedIds,
        claim.token,
        options.deadBlockedRecheckMs,
      );
      this.countLease(blockedIds.length, released);
    }
    const waiting = plan.waiting.map(({ row, topic }) => ({
      id: row.id,
      topic,
      code: 'UNKNOWN_TOPIC_OR_PARTITION' as const,
    }));
    await this.release(claim.token, this.topicHolds.hold(waiting));
    if (plan.send.length === 0) return undefined;

    const rows = plan.send.map((s) => s.row);
    const keeper = this.leaseKeeper(
      claim,
      rows.length,
      rows.map((r) => r.id),
    );
    if (!(await keeper.start(claim.leasedAt))) {
      this.countLease(rows.length, 0);
      return undefined;
    }
    try {
      await this.parts.tracing.publish(toTopicBatches(plan.send), (b) =>
        this.parts.publisher.publish(b),
      );
    } catch (error) {
      keeper.stop();
      if (keeper.lost) {
        this.countLease(rows.length, 0);
        return undefined;
      }
      const held = error instanceof TopicUnavailableError && this.holdRefused(claim, plan, error);
      if (held) return held;
      const refusedAccess = this.accessHold.hold(error);
      if (refusedAccess !== undefined) {
        // The cluster refused the relay's client, not the rows: they wait, keeping their attempts.
        this.counters.topicHeld += rows.length;
        return async () =>
          this.countLease(
            rows.length,
            await outcomes.release(
              rows.map((r) => r.id),
              claim.token,
              refusedAccess,
            ),
          );
      }
      this.counters.publishFailures += rows.length;
      const reason = `publish failed: ${describeError(error)}`;
      logger.warn?.(`${rows.length} outbox rows not published, will retry: ${reason}`);
      return async () =>
        this.countLease(rows.length, await outcomes.markFailed(rows, claim.token, reason));
    }
    keeper.stop();
    this.accessHold.cleared();
    this.counters.published += rows.length;
    this.topicHolds.cleared(plan.send.map((s) => s.topic));
    const ids = rows.map((r) => r.id);
    return async () => this.countLease(rows.length, await outcomes.markSent(ids, claim.token));
  }

  /**
   * A send refused for its topics: the rows of those topics wait for them (the fault recorded,
   * no attempt counted); the rows of the topics the publisher reports published are SENT; the
   * batch's other rows go back due now, as they were not at fault (any of them written already
   * is a duplicate the consumers' inbox absorbs).
   */
  private holdRefused(
    claim: Claim,
    plan: PublishPlan,
    error: TopicUnavailableError,
  ): RecordOutcome | undefined {
    const refused = new Map(error.topics.map((t) => [t.topic, t.code]));
    const held = plan.send.filter((s) => refused.has(s.topic));
    if (held.length === 0) return undefined;
    const holds = this.topicHolds.hold(
      held.map((s) => ({ id: s.row.id, topic: s.topic, code: refused.get(s.topic)! })),
    );
    const published = new Set(error.published);
    const sent = plan.send.filter((s) => published.has(s.topic)).map((s) => s.row.id);
    const others = plan.send
      .filter((s) => !refused.has(s.topic) && !published.has(s.topic))
      .map((s) => s.row.id);
    this.counters.published += sent.length;
    this.topicHolds.cleared(published);
    const { outcomes } = this.parts;
    return async () => {
      await this.release(claim.token, holds);
      if (sent.length > 0) this.countLease(sent.length, await outcomes.markSent(sent, claim.token));
      if (others.length > 0) {
        this.countLease(others.length, await outcomes.release(others, claim.token));
      }
    };
  }

  /** Hands held rows back unsent, each topic's rows due after its delay. */
  private async release(token: string, holds: TopicHold[]): Promise<void> {
    for (const { ids, delayMs } of holds) {
      this.counters.topicHeld += ids.length;
      this.countLease(ids.length, await this.parts.outcomes.release(ids, token, delayMs));
    }
  }

  /**
   * The lease covers the whole send, however long kafkajs takes: extended now unless it was
   * just taken (a lost lease abandons the send before anything is written), and while the
   * send is in flight.
   */
  private leaseKeeper(claim: Claim, count: number, ids: string[]): LeaseKeeper {
    const { options, publisher, logger } = this.parts;
    return new LeaseKeeper(
      this.parts.outcomes,
      ids,
      claim.token,
      { ...options, maxSendMs: 3 * worstSendTimeMs(options) },
      (reason) => {
        logger.warn?.(`abandoning a send of ${count} outbox rows: ${reason}`);
        void publisher.abort?.();
      },
    );
  }

  /** Unknown metadata is not a reason to kill rows: treat as "all present" and let send fail. */
  private async missingTopics(claim: Claim): Promise<string[]> {
    const topics = new Set<string>();
    for (const row of claim.rows) {
      try {
        topics.add(this.parts.topicFor(row.aggregateType));
      } catch {
        // planPublish turns it into a DEAD row with the reason.
      }
    }
    try {
      return await this.parts.publisher.missingTopics([...topics]);
    } catch {
      return [];
    }
  }

  private countLease(expected: number, changed: number): void {
    if (changed < expected) {
      this.counters.leaseLost += expected - changed;
      this.parts.logger.warn?.(
        `${expected - changed} outbox rows were taken over by another relay after this relay's ` +
          'lease expired; their outcome was left to that relay',
      );
    }
  }
}

/** An error as one line for a log or last_error: name, message and the cause's message. */
export function describeError(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { message?: string } };
  const cause = e?.cause?.message ? ` (cause: ${e.cause.message})` : '';
  return `${e?.name ?? 'Error'}: ${e?.message ?? String(error)}${cause}`;
}
