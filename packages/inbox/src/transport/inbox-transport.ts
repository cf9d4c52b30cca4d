import { readHeaders } from '@outbox-inbox/messaging';
import { Logger } from '@nestjs/common';
import { CustomTransportStrategy, Server } from '@nestjs/microservices';
import { Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import { failureCode } from '../classify-failure';
import { DeadLetterPublisher } from '../dead-letter/dead-letter-publisher';
import { NestHandlers } from '../handlers/nest-handlers';
import { InboxHousekeeping } from '../housekeeping/inbox-housekeeping';
import { InboxError } from '../inbox.errors';
import { ResolvedInboxOptions } from '../inbox.options';
import { InboxMetrics } from '../metrics/inbox-metrics';
import { ensureTopics } from './ensure-topics';
import { leaveGroupWithin } from './leave-group';
import { DeliveryControl, MessageRunner } from './message-runner';

/** What an InboxTransport works with; built by createInbox. */
export interface InboxTransportDeps {
  options: ResolvedInboxOptions;
  /** The client the consumer and the dead-letter producer connect through. */
  kafka: Kafka;
  metrics: InboxMetrics;
  /** Nest's handlers: the transport attaches itself when it starts, once Nest registered them. */
  handlers: NestHandlers;
  /** Settles each message. */
  runner: MessageRunner;
  /** The runner's dead letters: connected at each start, disconnected on close. */
  deadLetters: DeadLetterPublisher;
  /** The timers: started once the consumer joined its group, stopped on close. */
  housekeeping: InboxHousekeeping;
}

/**
 * The Nest transport that feeds `@OnEvent` and `@OnEventBatch` handlers from Kafka through the
 * inbox: it consumes, commits offsets and runs the consumer's lifecycle; each message is
 * settled by the MessageRunner that createInbox built. One kafkajs consumer (group = consumer
 * name, auto-commit off); partitions in parallel, each in order.
 * Connect it with `app.connectMicroservice({ strategy: app.get(InboxTransport) })`.
 */
export class InboxTransport extends Server implements CustomTransportStrategy {
  private readonly log = new Logger(InboxTransport.name);
  private readonly options: ResolvedInboxOptions;
  private readonly kafka: Kafka;
  private readonly metrics: InboxMetrics;
  private consumer?: Consumer;
  private stopping = false;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(private readonly deps: InboxTransportDeps) {
    super();
    this.options = deps.options;
    this.kafka = deps.kafka;
    this.metrics = deps.metrics;
  }

  async listen(callback: (error?: unknown) => void): Promise<void> {
    try {
      await this.start();
      callback();
    } catch (error) {
      callback(error);
    }
  }

  async close(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    this.deps.housekeeping.stop();
    const timeoutMs = this.options.kafka.leaveTimeoutMs ?? 5_000;
    if (this.consumer && !(await leaveGroupWithin(this.consumer, timeoutMs))) {
      this.log.warn(
        `consumer ${this.options.consumer} did not leave its group within ${timeoutMs} ms (a group join is in progress); shutting down without waiting, the group drops it when its session times out`,
      );
    }
    await this.deps.deadLetters.disconnect();
    this.consumer = undefined;
  }

  on(): never {
    throw new Error('InboxTransport does not emit events');
  }

  unwrap<T>(): T {
    return this.consumer as T;
  }

  /**
   * Resolves once the consumer has first joined its group. A mistake in the setup (handlers,
   * a topic that cannot exist) rejects; a broker that cannot be reached yet is waited for, with
   * a log line per attempt, as a crashed consumer is started again.
   */
  private async start(): Promise<void> {
    const { options } = this;
    this.stopping = false;
    this.deps.handlers.attach(this);
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.connectAndRun();
        break;
      } catch (error) {
        if (error instanceof InboxError || this.stopping) throw error;
        const delay = restartDelayMs(attempt);
        this.log.error(
          `consumer ${options.consumer} could not start (${(error as Error).message}); trying again in ${delay} ms`,
        );
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
        if (this.stopping) return;
      }
    }
    this.deps.housekeeping.start();
    this.log.log(
      `consumer ${options.consumer} reading ${options.topics.join(', ')} and its retry topic ${options.retryTopic}; dead letters to ${options.deadLetterTopic}`,
    );
  }

  private async connectAndRun(): Promise<void> {
    const { options } = this;
    await ensureTopics(this.kafka, [
      ...options.topics,
      options.retryTopic,
      options.deadLetterTopic,
    ]);
    await this.deps.deadLetters.connect();
    try {
      await this.runConsumer();
    } catch (error) {
      await this.deps.deadLetters.disconnect().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Connects a consumer and runs it. kafkajs restarts a consumer by itself after a retriable
   * error only; after any other crash (a broker answering a request it calls malformed, say)
   * the consumer stays stopped while the process looks alive, so it is started again here.
   */
  private async runConsumer(attempt = 0): Promise<void> {
    const { options } = this;
    const consumer = this.kafka.consumer({
      groupId: options.groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: options.kafka.sessionTimeoutMs,
      heartbeatInterval: options.kafka.heartbeatIntervalMs,
      rebalanceTimeout: options.kafka.rebalanceTimeoutMs,
      maxWaitTimeInMs: options.kafka.maxWaitTimeMs ?? 1_000,
    });
    this.consumer = consumer;
    // Which partitions this instance owns after each rebalance: operators (and tests) read it.
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      attempt = 0;
      this.metrics.groupJoins += 1;
      this.metrics.rejoiningSince = undefined;
      this.metrics.clearLag();
      this.metrics.blocks.clearAll();
      const owned = Object.entries(payload.memberAssignment)
        .map(([topic, partitions]) => `${topic} [${partitions.join(',')}]`)
        .join('; ');
      this.log.log(`consumer ${options.consumer} joined its group; owns ${owned || 'nothing'}`);
    });
    consumer.on(consumer.events.FETCH, () => {
      this.metrics.fetches += 1;
    });
    consumer.on(consumer.events.REBALANCING, () => {
      this.metrics.rejoiningSince ??= Date.now();
    });
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (this.stopping || this.consumer !== consumer) return;
      this.metrics.consumerCrashes += 1;
      if (payload.restart) return;
      this.scheduleRestart(attempt, payload.error.message);
    });
    // close() may run while this consumer connects: then it must not go on to join the group.
    const superseded = () => this.stopping || this.consumer !== consumer;
    try {
      await consumer.connect();
      if (superseded()) return await consumer.disconnect();
      // The retry topic holds replays of this consumer's own dead letters: only its group reads it.
      await consumer.subscribe({
        topics: [...options.topics, options.retryTopic],
        fromBeginning: options.fromBeginning,
      });
      if (superseded()) return await consumer.disconnect();
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: options.partitionsConsumedConcurrently,
        eachBatch: (payload) => this.consumeBatch(payload),
      });
    } catch (error) {
      await consumer.disconnect().catch(() => undefined);
      throw error;
    }
  }

  /** Starts the consumer again after a backoff, and again after that if starting fails. */
  private scheduleRestart(attempt: number, reason: string): void {
    const delay = restartDelayMs(attempt);
    this.log.error(
      `consumer ${this.options.consumer} stopped (${reason}); starting it again in ${delay} ms`,
    );
    const timer = setTimeout(() => {
      if (this.stopping) return;
      this.runConsumer(attempt + 1).catch((error: Error) => {
        if (!this.stopping) this.scheduleRestart(attempt + 1, error.message);
      });
    }, delay);
    this.timers.push(timer);
  }

  /**
   * One partition's batch, in order. The offset after a settled message is committed every
   * `offsetCommitEvery` messages and at the end of the batch: committing less often than every
   * message only widens what a crash redelivers, and the inbox absorbs redeliveries.
   *
   * When a message is blocked by a transient failure, the partition is paused (its fetches
   * stop, the group and the other partitions go on), what settled before is committed, and
   * the partition resumes after a backoff: kafkajs fetches again from the first message not
   * resolved, which is the blocked one.
   */
  private async consumeBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, isRunning, isStale, pause } = payload;
    const { topic, partition } = batch;
    let settled: string | undefined;
    let sinceCommit = 0;
    // The batch's own commit, not consumer.commitOffsets: that one wraps a refusal for a
    // rebalance (REBALANCE_IN_PROGRESS, ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID) in a
    // KafkaJSNonRetriableError that kafkajs's runner does not recognise, so the consumer
    // crashed. This one lets the broker's error through, and the runner rejoins the group; the
    // offsets not committed are delivered again and the inbox absorbs them.
    const commit = async () => {
      if (settled === undefined || sinceCommit === 0) return;
      const offset = (BigInt(settled) + 1n).toString();
      await payload.commitOffsetsIfNecessary({
        topics: [{ topic, partitions: [{ partition, offset }] }],
      });
      sinceCommit = 0;
    };
    const control: DeliveryControl = {
      // A failed heartbeat (rebalance under way) must not fail the message.
      heartbeat: () => heartbeat().catch(() => undefined),
      isStopping: () => this.stopping,
    };
    const { batchSize, offsetCommitEvery } = this.options;
    const messages = batch.messages;
    for (let i = 0; i < messages.length; i += batchSize) {
      if (!isRunning() || isStale()) break;
      const chunk = messages.slice(i, i + batchSize).map((message) => ({
        message,
        position: {
          topic,
          partition,
          offset: message.offset,
          headers: readHeaders(message.headers),
        },
      }));
      try {
        await this.deps.runner.settleTogether(chunk, control);
      } catch (error) {
        if (!isBlocking(error)) throw error;
        // Blocked at chunk[0]: the lag counts it and everything after it, and keeps growing
        // with each retry round's fetch.
        const blockedAt = Number(chunk[0].message.offset);
        this.metrics.recordLag(topic, partition, Number(batch.highWatermark) - blockedAt);
        await commit();
        this.pausePartition(topic, partition, error, pause);
        return;
      }
      if (this.metrics.blocks.isBlocked(topic, partition)) {
        this.metrics.blocks.clear(topic, partition);
        this.log.log(`${topic}/${partition} is making progress again; unblocked`);
      }
      settled = chunk[chunk.length - 1].message.offset;
      resolveOffset(settled);
      this.metrics.recordLag(topic, partition, Number(batch.highWatermark) - Number(settled) - 1);
      sinceCommit += chunk.length;
      if (sinceCommit >= offsetCommitEvery) {
        await commit();
        // Unlike during retries, a rebalance error here (or from the commit) is let through:
        // kafkajs's runner then ends this batch and rejoins, and the next owner of the partition
        // starts after the last committed offset.
        await heartbeat();
      }
    }
    await commit();
  }

  /** Pauses a partition blocked by a transient failure and resumes it after a backoff. */
  private pausePartition(
    topic: string,
    partition: number,
    error: InboxError,
    pause: EachBatchPayload['pause'],
  ): void {
    const cause = error.cause as Error | undefined;
    const reason = `${failureCode(cause)}: ${cause?.message ?? error.message}`;
    const waitMs = this.metrics.blocks.fail(topic, partition, reason);
    this.metrics.pauses += 1;
    const resume = pause();
    const line = `${topic}/${partition} paused: ${error.message}; retrying in ${waitMs} ms (blocked for ${this.metrics.blocks.blockedSeconds().toFixed(1)} s)`;
    if (error.code === 'DEAD_LETTER_REJECTED') {
      // Nothing heals this by itself: say so loudly, once per round.
      this.metrics.deadLetterRejections += 1;
      this.log.error(line);
    } else {
      this.log.warn(line);
    }
    const timer = setTimeout(() => {
      const index = this.timers.indexOf(timer);
      if (index >= 0) this.timers.splice(index, 1);
      if (!this.stopping) resume();
    }, waitMs);
    this.timers.push(timer);
  }
}

/** 0.5 s, doubling up to 30 s. */
function restartDelayMs(attempt: number): number {
  return Math.min(30_000, 500 * 2 ** attempt);
}

/** A failure that pauses the partition instead of failing the consumer. */
function isBlocking(error: unknown): error is InboxError {
  return (
    error instanceof InboxError &&
    (error.code === 'DEPENDENCY_UNAVAILABLE' || error.code === 'DEAD_LETTER_REJECTED')
  );
}
