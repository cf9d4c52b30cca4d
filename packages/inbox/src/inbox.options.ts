import { kafkaConnectionProblems, openTelemetryTracing } from '@outbox-inbox/messaging';
import type { EventRegistry, KafkaConnection, MessageTracing } from '@outbox-inbox/messaging';
import { classifyFailure, FailureClassifier } from './classify-failure';
import { InboxError } from './inbox.errors';

/** How a failing message is retried before it goes to the dead-letter topic. */
export interface InboxRetryPolicy {
  /** Attempts in all, the first included. Default 8. */
  maxAttempts: number;
  /** Default 50 ms. */
  baseDelayMs: number;
  /** Default 5 s. */
  maxDelayMs: number;
}

/** How long a partition stays paused between rounds while a dependency is down. */
export interface InboxBlockedBackoff {
  /** Default 500 ms. */
  baseDelayMs: number;
  /** Default 15 s: the longest a healed dependency waits to be noticed. */
  maxDelayMs: number;
}

/** Where a message came from: a partition and an offset of a topic. */
export interface DeliveryPosition {
  topic: string;
  partition: number;
  offset: string;
}

/**
 * How the inbox creates a missing topic at start (its retry and dead-letter topics, and a
 * source topic the producer has not created yet), where the broker allows it.
 */
export interface InboxTopicCreation {
  /** Default true; false: a missing topic stops the start (TOPIC_MISSING), naming it. */
  enabled?: boolean;
  /**
   * Partitions of each created topic. Default: the largest count among `topics` for the retry
   * and dead-letter topics, the broker's default (`num.partitions`) for a source topic.
   */
  partitions?: number;
  /** Default: the broker's (`default.replication.factor`). */
  replicationFactor?: number;
  /** Topic configs, e.g. `{ 'retention.ms': '1209600000', 'min.insync.replicas': '2' }`. */
  configs?: Record<string, string>;
}

/** Options of `InboxModule.forRoot`. */
export interface InboxModuleOptions {
  /** Consumer name: the inbox key, and the Kafka consumer group id unless `groupId` is given. */
  consumer: string;
  /** Kafka consumer group id. Default `consumer`. */
  groupId?: string;
  /**
   * Kafka client settings (brokers, clientId, ssl, sasl, logLevel) or `client`: a kafkajs
   * instance; and the consumer group's timing.
   */
  kafka: KafkaConnection & {
    /** Group timing; defaults are kafkajs's (session 30 s, heartbeat 3 s). */
    sessionTimeoutMs?: number;
    heartbeatIntervalMs?: number;
    rebalanceTimeoutMs?: number;
    /** Longest fetch long-poll; shutdown waits for the poll in flight. Default 1000 ms. */
    maxWaitTimeMs?: number;
    /**
     * Longest wait at shutdown for the consumer to end its batch and leave its group; past it
     * (a group join in flight) the group drops the member at its session timeout. Default 5000.
     */
    leaveTimeoutMs?: number;
  };
  topics: string[];
  /** Default `${consumer}.dlq`. */
  deadLetterTopic?: string;
  /**
   * This consumer's own retry topic, read by its group alone beside `topics`: a replay of its
   * dead letters is published there, so no other group receives it again. Its messages take
   * the same path as the originals (inbox row, version gate). Default `${consumer}.retry`.
   */
  retryTopic?: string;
  /** The event types this consumer can decode (required: the inbox knows no catalogue). */
  registry: EventRegistry;
  /** In-place retries of a failing message (unknown failures dead-letter after them). */
  retry?: Partial<InboxRetryPolicy>;
  /**
   * Tells permanent failures (dead-letter), transient ones (pause the partition and retry for
   * as long as it takes) and unknown ones (bounded retries, then dead-letter). Default
   * `classifyFailure` (see classify-failure.ts); wrap it to add your own errors.
   */
  classifyFailure?: FailureClassifier;
  /** Pause between retry rounds of a partition blocked by a transient failure. */
  blockedBackoff?: Partial<InboxBlockedBackoff>;
  /** A parked event older than this is an open gap in stats and logs. Default 60 s. */
  gapAlertMs?: number;
  /** How often open gaps are logged. Default 30 s; 0 turns the check off. */
  gapCheckIntervalMs?: number;
  /** Inbox rows older than this are pruned. Default 7 days. */
  dedupWindowMs?: number;
  /** Rows deleted per prune statement. Default 1000. */
  pruneChunkSize?: number;
  /** How often the transport prunes. Default 1 h; 0 turns scheduled pruning off. */
  pruneIntervalMs?: number;
  /** Partitions handled in parallel (one partition stays in order). Default 4. */
  partitionsConsumedConcurrently?: number;
  /**
   * Commit the partition's offset after this many settled messages (and at the end of each
   * fetched batch). 1 commits after every message; more is faster and only widens what a crash
   * redelivers. Default 20.
   */
  offsetCommitEvery?: number;
  /**
   * Messages of one partition applied in one transaction. 1 (default): one transaction per
   * message. More: batched mode; a batch that fails is settled message by message, so a bad
   * message is isolated and dead-lettered alone.
   */
  batchSize?: number;
  /**
   * Off by default. true: the start fails (START_CHECK_FAILED) unless each inbox table answers
   * a query and the topics it reads exist, naming what is missing.
   */
  checkOnStart?: boolean;
  /** Creating missing topics at start: on by default, with partitions, replication and configs. */
  topicCreation?: InboxTopicCreation;
  /** Where a new group starts reading. Default true: nothing already in the topic is skipped. */
  fromBeginning?: boolean;
  /**
   * How each message's trace travels: it is settled in the trace context its headers carry.
   * Default: openTelemetryTracing (@outbox-inbox/messaging).
   */
  tracing?: MessageTracing;
}

/** The options with every default filled in. */
export interface ResolvedInboxOptions extends Required<
  Omit<InboxModuleOptions, 'retry' | 'kafka' | 'blockedBackoff'>
> {
  kafka: InboxModuleOptions['kafka'];
  retry: InboxRetryPolicy;
  blockedBackoff: InboxBlockedBackoff;
}

/** Fills defaults and validates; throws InboxError('INVALID_OPTIONS') naming the bad field. */
export function resolveInboxOptions(options: InboxModuleOptions): ResolvedInboxOptions {
  const resolved: ResolvedInboxOptions = {
    consumer: options.consumer,
    groupId: options.groupId ?? options.consumer,
    kafka: options.kafka,
    topics: options.topics,
    deadLetterTopic: options.deadLetterTopic ?? `${options.consumer}.dlq`,
    retryTopic: options.retryTopic ?? `${options.consumer}.retry`,
    registry: options.registry,
    retry: { maxAttempts: 8, baseDelayMs: 50, maxDelayMs: 5_000, ...options.retry },
    classifyFailure: options.classifyFailure ?? classifyFailure,
    blockedBackoff: { baseDelayMs: 500, maxDelayMs: 15_000, ...options.blockedBackoff },
    gapAlertMs: options.gapAlertMs ?? 60_000,
    gapCheckIntervalMs: options.gapCheckIntervalMs ?? 30_000,
    dedupWindowMs: options.dedupWindowMs ?? 7 * 24 * 3_600_000,
    pruneChunkSize: options.pruneChunkSize ?? 1_000,
    pruneIntervalMs: options.pruneIntervalMs ?? 3_600_000,
    partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? 4,
    offsetCommitEvery: options.offsetCommitEvery ?? 20,
    batchSize: options.batchSize ?? 1,
    fromBeginning: options.fromBeginning ?? true,
    topicCreation: options.topicCreation ?? {},
    checkOnStart: options.checkOnStart ?? false,
    tracing: options.tracing ?? openTelemetryTracing,
  };
  const problems: string[] = [];
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(resolved.consumer ?? '')) {
    problems.push('consumer must be 1-64 characters of [A-Za-z0-9._-]');
  }
  problems.push(...kafkaConnectionProblems(resolved.kafka));
  if (!resolved.topics?.length) problems.push('topics must not be empty');
  if (typeof resolved.registry?.find !== 'function')
    problems.push('registry must be an EventRegistry');
  if (resolved.topics?.includes(resolved.deadLetterTopic)) {
    problems.push('deadLetterTopic must not be one of topics');
  }
  if (resolved.topics?.includes(resolved.retryTopic)) {
    problems.push('retryTopic must not be one of topics (other groups read those)');
  }
  if (resolved.retryTopic === resolved.deadLetterTopic) {
    problems.push('retryTopic must not be the deadLetterTopic');
  }
  if (typeof resolved.classifyFailure !== 'function') {
    problems.push('classifyFailure must be a function');
  }
  if (typeof resolved.tracing?.receive !== 'function') {
    problems.push('tracing must be a MessageTracing (receive)');
  }
  const positive: Array<[string, number]> = [
    ['retry.maxAttempts', resolved.retry.maxAttempts],
    ['retry.baseDelayMs', resolved.retry.baseDelayMs],
    ['retry.maxDelayMs', resolved.retry.maxDelayMs],
    ['blockedBackoff.baseDelayMs', resolved.blockedBackoff.baseDelayMs],
    ['blockedBackoff.maxDelayMs', resolved.blockedBackoff.maxDelayMs],
    ['gapAlertMs', resolved.gapAlertMs],
    ['dedupWindowMs', resolved.dedupWindowMs],
    ['pruneChunkSize', resolved.pruneChunkSize],
    ['partitionsConsumedConcurrently', resolved.partitionsConsumedConcurrently],
    ['offsetCommitEvery', resolved.offsetCommitEvery],
    ['batchSize', resolved.batchSize],
  ];
  for (const [name, value] of positive) {
    if (!Number.isInteger(value) || value < 1) problems.push(`${name} must be an integer >= 1`);
  }
  const { partitions, replicationFactor, configs } = resolved.topicCreation;
  for (const [name, value] of [
    ['topicCreation.partitions', partitions],
    ['topicCreation.replicationFactor', replicationFactor],
  ] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
      problems.push(`${name} must be an integer >= 1`);
    }
  }
  if (configs !== undefined && Object.values(configs).some((v) => typeof v !== 'string')) {
    problems.push('topicCreation.configs must map names to strings');
  }
  for (const [name, value] of [
    ['gapCheckIntervalMs', resolved.gapCheckIntervalMs],
    ['pruneIntervalMs', resolved.pruneIntervalMs],
  ] as const) {
    if (!Number.isInteger(value) || value < 0) problems.push(`${name} must be an integer >= 0`);
  }
  if (problems.length > 0) {
    throw new InboxError('INVALID_OPTIONS', `InboxModule options: ${problems.join('; ')}`);
  }
  return resolved;
}
