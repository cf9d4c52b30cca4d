import { Logger } from '@nestjs/common';
import { CustomTransportStrategy, Server } from '@nestjs/microservices';
import { Consumer, Kafka } from 'kafkajs';
import { DeadLetterPublisher } from '../dead-letter/dead-letter-publisher';
import { NestHandlers } from '../handlers/nest-handlers';
import { InboxHousekeeping } from '../housekeeping/inbox-housekeeping';
import { InboxError } from '../inbox.errors';
import { ResolvedInboxOptions } from '../inbox.options';
import { InboxMetrics } from '../metrics/inbox-metrics';
import {
  consumerFaultOf,
  deniedTopics,
  describeConsumerFault,
  hidesCause,
} from '../metrics/consumer-fault';
import { ensureTopics } from './ensure-topics';
import { leaveGroupWithin } from './leave-group';
import { MessageRunner } from './message-runner';
import { PartitionBatches } from './partition-batches';

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
  /** The opt-in start-up check (checkOnStart): rejects with an InboxError naming what is missing. */
  startCheck?: () => Promise<void>;
}

/**
 * The Nest transport that feeds `@OnEvent` and `@OnEventBatch` handlers from Kafka through the
 * inbox: it runs the consumer's lifecycle (start, restart after a crash, close) and hands each
 * batch to PartitionBatches, which settles its messages through the MessageRunner that
 * createInbox built and commits their offsets. One kafkajs consumer (group = consumer
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
  private readonly batches: PartitionBatches;

  constructor(private readonly deps: InboxTransportDeps) {
    super();
    this.options = deps.options;
    this.kafka = deps.kafka;
    this.metrics = deps.metrics;
    this.batches = new PartitionBatches({
      options: deps.options,
      metrics: deps.metrics,
      runner: deps.runner,
      isStopping: () => this.stopping,
    });
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
    this.batches.stop();
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
        await this.recordFault(error);
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
    await this.deps.startCheck?.();
    await ensureTopics(
      this.kafka,
      {
        sources: options.topics,
        retryTopic: options.retryTopic,
        deadLetterTopic: options.deadLetterTopic,
      },
      options.topicCreation,
    );
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
      this.clearFault();
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
      void this.recordFault(payload.error);
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
        eachBatch: (payload) => this.batches.consume(payload),
      });
    } catch (error) {
      await consumer.disconnect().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Keeps why the consumer is not reading for /health/details and /inbox/stats (a refused
   * login or certificate, a topic or the group the ACLs deny, or kafkajs's own code), with one
   * `error` line when the cause begins or changes. The consumer keeps trying with its backoff:
   * an operational fault stops no process, fails no message, and clears at the next join.
   */
  private async recordFault(error: unknown): Promise<void> {
    const { options } = this;
    const topics = [...options.topics, options.retryTopic];
    let fault = consumerFaultOf(error, { topics, groupId: options.groupId });
    if (fault.code === 'TOPIC_AUTHORIZATION_FAILED') {
      const denied = await deniedTopics(this.kafka, topics);
      fault = consumerFaultOf(error, { topics, groupId: options.groupId }, denied);
    }
    const current = this.metrics.consumerFault;
    if (current?.code === fault.code && current.subject === fault.subject) return;
    if (hidesCause(current, fault)) return;
    const next = { ...fault, since: new Date().toISOString() };
    this.metrics.consumerFault = next;
    this.log.error(`consumer ${options.consumer}: ${describeConsumerFault(next)}`);
  }

  /** The consumer joined its group: the fault, if any, is over (one log line). */
  private clearFault(): void {
    const fault = this.metrics.consumerFault;
    if (!fault) return;
    this.metrics.consumerFault = undefined;
    this.log.log(
      `consumer ${this.options.consumer} reads again (${fault.code} on ${fault.subject} since ${fault.since})`,
    );
  }

  /** Starts the consumer again after a backoff, and again after that if starting fails. */
  private scheduleRestart(attempt: number, reason: string): void {
    const delay = restartDelayMs(attempt);
    this.log.error(
      `consumer ${this.options.consumer} stopped (${reason}); starting it again in ${delay} ms`,
    );
    const timer = setTimeout(() => {
      if (this.stopping) return;
      this.runConsumer(attempt + 1).catch(async (error: Error) => {
        if (this.stopping) return;
        await this.recordFault(error);
        this.scheduleRestart(attempt + 1, error.message);
      });
    }, delay);
    this.timers.push(timer);
  }
}

/** 0.5 s, doubling up to 30 s. */
function restartDelayMs(attempt: number): number {
  return Math.min(30_000, 500 * 2 ** attempt);
}
